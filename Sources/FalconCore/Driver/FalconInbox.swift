/// Inputs waiting to be handled, oldest first, each with the execution it is for.
///
/// Taking the next input costs O(1): inputs not yet handled start at `head`, and the storage is emptied
/// (keeping its capacity) once all are, instead of shifting the rest at every take.
package struct FalconInbox: Sendable {
    private var entries: [(UInt64, FalconExecutionStateMachine.Input)] = []
    private var head = 0

    /// Creates an empty inbox.
    package init() {}

    /// Queues `input` for execution `id`.
    package mutating func append(_ id: UInt64, _ input: FalconExecutionStateMachine.Input) {
        entries.append((id, input))
    }

    /// The oldest input not yet handled, or `nil` when there is none (the inbox is then empty).
    package mutating func next() -> (UInt64, FalconExecutionStateMachine.Input)? {
        guard head < entries.count else {
            entries.removeAll(keepingCapacity: entries.capacity <= 1024)
            head = 0
            return nil
        }
        // Moved out, a payload-free placeholder left behind: what the input held (a URL, a bridge message) is
        // released with it, and nothing is copied (a `URL` copies through the runtime).
        var next: (UInt64, FalconExecutionStateMachine.Input) = (0, .superseded)
        swap(&next, &entries[head])
        head += 1
        return next
    }
}
