/// Pending timers ordered by deadline: a binary min-heap over `(deadline, id)` with removal by id.
///
/// A value type with no clock and no threads, so ``FalconSystemClock`` can keep every timer of a client in one
/// place and a test can check the ordering exhaustively. Ids increase with every insertion, so timers with
/// the same deadline come out in insertion order. Removing an entry drops it (and its payload) at once: a
/// cancelled timer holds no memory until its deadline.
///
/// - Complexity: insertion, removal and ``popEarliest(dueBy:)`` are O(log n); ``earliestDeadline`` is O(1).
struct FalconDeadlineHeap<Payload> {
    private struct Entry {
        var deadline: Duration
        var id: UInt64
        var payload: Payload

        func precedes(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && id < other.id)
        }
    }

    private var entries: [Entry] = []
    /// Where each pending id sits in `entries`.
    private var positions: [UInt64: Int] = [:]
    private var lastID: UInt64 = 0

    /// How many entries are pending.
    var count: Int { entries.count }

    /// Whether nothing is pending.
    var isEmpty: Bool { entries.isEmpty }

    /// The earliest pending deadline.
    var earliestDeadline: Duration? { entries.first?.deadline }

    /// Adds `payload` at `deadline` and returns its id (never reused).
    mutating func insert(_ payload: Payload, deadline: Duration) -> UInt64 {
        lastID += 1
        entries.append(Entry(deadline: deadline, id: lastID, payload: payload))
        positions[lastID] = entries.count - 1
        siftUp(entries.count - 1)
        return lastID
    }

    /// Removes the entry `id` and returns its payload; `nil` when it already left (popped or removed).
    @discardableResult
    mutating func remove(_ id: UInt64) -> Payload? {
        guard let index = positions.removeValue(forKey: id) else { return nil }
        return take(at: index)
    }

    /// Removes and returns the earliest entry if its deadline is at or before `instant`.
    mutating func popEarliest(dueBy instant: Duration) -> Payload? {
        guard let first = entries.first, first.deadline <= instant else { return nil }
        positions[first.id] = nil
        return take(at: 0)
    }

    /// Removes the entry at `index` (whose position is already forgotten) and restores the heap order.
    private mutating func take(at index: Int) -> Payload {
        let last = entries.count - 1
        if index != last {
            entries.swapAt(index, last)
            positions[entries[index].id] = index
        }
        let removed = entries.removeLast()
        if index < entries.count {
            // The entry moved into the hole may belong above or below it.
            siftDown(siftUp(index))
        }
        return removed.payload
    }

    /// Moves the entry at `index` up while it precedes its parent; returns where it ends.
    @discardableResult
    private mutating func siftUp(_ index: Int) -> Int {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].precedes(entries[parent]) else { break }
            swap(child, parent)
            child = parent
        }
        return child
    }

    /// Moves the entry at `index` down while a child precedes it.
    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { return }
            let right = left + 1
            var smallest = left
            if right < entries.count, entries[right].precedes(entries[left]) { smallest = right }
            guard entries[smallest].precedes(entries[parent]) else { return }
            swap(parent, smallest)
            parent = smallest
        }
    }

    private mutating func swap(_ a: Int, _ b: Int) {
        entries.swapAt(a, b)
        positions[entries[a].id] = a
        positions[entries[b].id] = b
    }
}
