/// A bounded FIFO that drops its oldest element when full: the shape of the interaction replay buffer and of
/// the events waiting for the first Binoban instance.
///
/// A value type without locks; its owner guards it. Appending is amortised O(1): storage grows with the
/// elements actually held (never allocated up front for the whole capacity), then works as a ring.
struct DropOldestBuffer<Element: Sendable>: Sendable {
    let capacity: Int
    /// Grows up to `capacity`; while it is not full, `head` is 0.
    private var storage: [Element] = []
    private var head = 0

    /// The number of elements held.
    var count: Int { storage.count }

    /// Creates an empty buffer holding at most `capacity` elements (at least 1). Nothing is allocated yet.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Appends `element`; returns `true` when the oldest element was dropped to make room.
    @discardableResult
    mutating func append(_ element: Element) -> Bool {
        guard storage.count == capacity else {
            storage.append(element)
            return false
        }
        storage[head] = element
        head = head == capacity - 1 ? 0 : head + 1
        return true
    }

    /// Removes and returns every element, oldest first, and releases the storage.
    mutating func removeAll() -> [Element] {
        let elements = Array(storage[head...] + storage[..<head])
        storage = []
        head = 0
        return elements
    }
}
