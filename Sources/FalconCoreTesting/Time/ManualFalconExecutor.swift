/// An executor whose jobs run only when the test says so, in FIFO order, on the calling thread.
///
/// ```swift
/// let executor = ManualFalconExecutor()
/// client.execute(attributes: attributes, placement: .overlay)
/// executor.runAll()  // delivers onShouldShowLoadingIndicator, then present, load, …
/// ```
public final class ManualFalconExecutor: FalconExecutor {
    private let queue = LockedValue([@Sendable () -> Void]())

    /// Creates an empty executor.
    public init() {}

    /// Queues `job`; never runs it here.
    public func enqueue(_ job: @escaping @Sendable () -> Void) {
        queue.withLock { $0.append(job) }
    }

    /// How many jobs are waiting.
    public var pendingCount: Int { queue.withLock { $0.count } }

    /// Runs jobs until the queue is empty, including jobs enqueued by the jobs it runs; returns how many ran.
    @discardableResult
    public func runAll() -> Int {
        var count = 0
        while let job = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            job()
            count += 1
        }
        return count
    }
}
