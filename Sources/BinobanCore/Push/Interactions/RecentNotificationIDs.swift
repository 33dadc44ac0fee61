/// The most recent notification uuids seen by one path, bounded, to report each notification once.
///
/// Remembers at most `capacity` uuids; the least recently inserted is forgotten first, so a uuid seen again
/// after `capacity` others may be reported again. A value type without locks; its owner guards it.
struct RecentNotificationIDs: Sendable {
    let capacity: Int
    private var members: Set<String> = []
    private var ring: [String?]
    private var next = 0

    /// Creates an empty memory of at most `capacity` uuids (at least 1).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        ring = Array(repeating: nil, count: self.capacity)
    }

    /// Records `id`; returns `true` when it was not already remembered.
    mutating func insert(_ id: String) -> Bool {
        guard !members.contains(id) else { return false }
        if let evicted = ring[next] { members.remove(evicted) }
        ring[next] = id
        next = (next + 1) % capacity
        members.insert(id)
        return true
    }
}
