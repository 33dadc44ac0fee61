/// The most recent notification uuids seen by one path, bounded, to report each notification once.
///
/// Remembers at most `capacity` uuids; the least recently inserted is forgotten first, so a uuid seen again
/// after `capacity` others may be reported again. A value type without locks; its owner guards it. Memory
/// grows with the uuids actually remembered, never allocated up front for the whole capacity.
struct RecentNotificationIDs: Sendable {
    let capacity: Int
    private var members: Set<String> = []
    /// Insertion order; grows up to `capacity`, then works as a ring whose oldest entry is at `next`.
    private var ring: [String] = []
    private var next = 0

    /// Creates an empty memory of at most `capacity` uuids (at least 1). Nothing is allocated yet.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Records `id`; returns `true` when it was not already remembered.
    mutating func insert(_ id: String) -> Bool {
        guard !members.contains(id) else { return false }
        if ring.count < capacity {
            ring.append(id)
        } else {
            members.remove(ring[next])
            ring[next] = id
            next = next == capacity - 1 ? 0 : next + 1
        }
        members.insert(id)
        return true
    }
}
