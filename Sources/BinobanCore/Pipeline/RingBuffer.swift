/// A fixed-capacity FIFO that overwrites its oldest element when full. O(1) push and pop.
struct RingBuffer<Element> {
    private var storage: [Element?]
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
        storage = Array(repeating: nil, count: max(1, capacity))
    }

    var capacity: Int { storage.count }
    var isEmpty: Bool { count == 0 }

    /// Appends `element`; returns the oldest element when it had to be dropped to make room.
    mutating func push(_ element: Element) -> Element? {
        if count == storage.count {
            let dropped = storage[head]
            storage[head] = element
            head = (head + 1) % storage.count
            return dropped
        }
        storage[(head + count) % storage.count] = element
        count += 1
        return nil
    }

    /// Removes and returns up to `limit` elements, oldest first.
    mutating func pop(upTo limit: Int) -> [Element] {
        let taken = min(limit, count)
        var result: [Element] = []
        result.reserveCapacity(taken)
        for _ in 0..<taken {
            if let element = storage[head] { result.append(element) }
            storage[head] = nil
            head = (head + 1) % storage.count
        }
        count -= taken
        return result
    }
}
