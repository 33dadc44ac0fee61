/// Pending timers ordered by deadline: a binary min-heap over `(deadline, sequence)` with removal by id.
///
/// A value type with no clock and no threads, so ``FalconSystemClock`` can keep every timer of a client in one
/// place. Entries live in a table of slots; the heap orders slot numbers, and each slot remembers where its
/// number sits in the heap, so a removal finds its entry without a search or a hash. Removing an entry frees
/// its payload (the timer's closure and everything it captures) at once; the slot is reused by the next
/// insertion, and the whole table is released whenever nothing is pending. Sequence numbers increase with
/// every insertion: timers with the same deadline come out in insertion order.
///
/// - Complexity: insertion, removal and ``popEarliest(dueBy:)`` are O(log n); ``earliestDeadline`` is O(1).
struct FalconDeadlineHeap<Payload> {
    /// Names one insertion; stale after its entry left, so a late removal is a no-op.
    struct ID: Hashable, Sendable {
        fileprivate var slot: Int
        fileprivate var sequence: UInt64
    }

    fileprivate struct Slot {
        var payload: Payload?
        var deadline: Duration = .zero
        var sequence: UInt64 = 0
        /// Where this slot's number is in `heap`, while it is pending.
        var heapIndex = -1
    }

    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    /// Slot numbers, ordered as a binary min-heap by `(deadline, sequence)`.
    private var heap: [Int] = []
    private var lastSequence: UInt64 = 0
    /// The largest slot table kept allocated while nothing is pending.
    private static var keptCapacity: Int { 1024 }

    /// How many entries are pending.
    var count: Int { heap.count }

    /// Whether nothing is pending.
    var isEmpty: Bool { heap.isEmpty }

    /// The earliest pending deadline.
    var earliestDeadline: Duration? { heap.first.map { slots[$0].deadline } }

    /// Adds `payload` at `deadline` and returns its id.
    mutating func insert(_ payload: Payload, deadline: Duration) -> ID {
        lastSequence += 1
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = slots.count
            slots.append(Slot())
        }
        slots[slot] = Slot(payload: payload, deadline: deadline, sequence: lastSequence, heapIndex: heap.count)
        heap.append(slot)
        siftUp(heap.count - 1)
        return ID(slot: slot, sequence: lastSequence)
    }

    /// Removes the entry `id` and returns its payload; `nil` when it already left (popped or removed).
    @discardableResult
    mutating func remove(_ id: ID) -> Payload? {
        guard id.slot < slots.count, slots[id.slot].sequence == id.sequence, slots[id.slot].heapIndex >= 0 else {
            return nil
        }
        return take(at: slots[id.slot].heapIndex)
    }

    /// Removes and returns the earliest entry if its deadline is at or before `instant`.
    mutating func popEarliest(dueBy instant: Duration) -> Payload? {
        guard let first = heap.first, slots[first].deadline <= instant else { return nil }
        return take(at: 0)
    }

    /// Removes the entry at heap position `index`, frees its slot and restores the heap order.
    private mutating func take(at index: Int) -> Payload? {
        let slot = heap[index]
        let last = heap.count - 1
        if index != last { move(heap[last], to: index) }
        heap.removeLast()
        if index < heap.count {
            // The entry moved into the hole may belong above or below it.
            siftDown(siftUp(index))
        }
        let payload = slots[slot].payload
        if heap.isEmpty {
            // Nothing pending: forget the table, so a burst of timers leaves no slots behind (a small table
            // keeps its storage for the next insertion).
            let keep = slots.capacity <= Self.keptCapacity
            slots.removeAll(keepingCapacity: keep)
            freeSlots.removeAll(keepingCapacity: keep)
        } else {
            slots[slot].payload = nil
            slots[slot].heapIndex = -1
            freeSlots.append(slot)
        }
        return payload
    }

    /// Reads the two keys in place (copying a slot would retain its payload).
    private func precedes(_ a: Int, _ b: Int) -> Bool {
        let (left, right) = (heap[a], heap[b])
        let (leftDeadline, rightDeadline) = (slots[left].deadline, slots[right].deadline)
        return leftDeadline < rightDeadline
            || (leftDeadline == rightDeadline && slots[left].sequence < slots[right].sequence)
    }

    /// Moves the entry at `index` up while it precedes its parent; returns where it ends.
    @discardableResult
    private mutating func siftUp(_ index: Int) -> Int {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(child, parent) else { break }
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
            guard left < heap.count else { return }
            let right = left + 1
            var smallest = left
            if right < heap.count, precedes(right, left) { smallest = right }
            guard precedes(smallest, parent) else { return }
            swap(parent, smallest)
            parent = smallest
        }
    }

    private mutating func move(_ slot: Int, to index: Int) {
        heap[index] = slot
        slots[slot].heapIndex = index
    }

    private mutating func swap(_ a: Int, _ b: Int) {
        let (slotA, slotB) = (heap[a], heap[b])
        move(slotA, to: b)
        move(slotB, to: a)
    }
}

/// A heap of sendable payloads is a plain value: the registry moves its deadlines with it under the driver's lock.
extension FalconDeadlineHeap: Sendable where Payload: Sendable {}

extension FalconDeadlineHeap.Slot: Sendable where Payload: Sendable {}
