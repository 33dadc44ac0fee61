/// A fixed-capacity FIFO that drops its oldest element when full: the shape of the interaction replay buffer
/// and of the events waiting for the first Binoban instance.
///
/// A value type without locks; its owner guards it. Appending is O(1) (a ring over a fixed array).
struct DropOldestBuffer<Element: Sendable>: Sendable {
    let capacity: Int
    private var storage: [Element?]
    private var head = 0
    private(set) var count = 0

    /// Creates an empty buffer holding at most `capacity` elements (at least 1).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        storage = Array(repeating: nil, count: self.capacity)
    }

    /// Appends `element`; returns `true` when the oldest element was dropped to make room.
    @discardableResult
    mutating func append(_ element: Element) -> Bool {
        let tail = (head + count) % capacity
        storage[tail] = element
        if count == capacity {
            head = (head + 1) % capacity
            return true
        }
        count += 1
        return false
    }

    /// Removes and returns every element, oldest first.
    mutating func removeAll() -> [Element] {
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for offset in 0..<count {
            let index = (head + offset) % capacity
            if let element = storage[index] { elements.append(element) }
            storage[index] = nil
        }
        head = 0
        count = 0
        return elements
    }
}
