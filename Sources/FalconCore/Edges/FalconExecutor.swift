import Dispatch

/// The serial executor every host callback, event and delegate call goes through.
///
/// Implementations run jobs one at a time in FIFO order and must never run a job inside `enqueue` itself
/// (the SDK relies on that so no callback fires re-entrantly from inside `execute`). On Apple platforms a
/// host typically wraps `DispatchQueue.main`.
public protocol FalconExecutor: Sendable {
    /// Schedules `job` to run after every job enqueued before it.
    func enqueue(_ job: @escaping @Sendable () -> Void)
}

/// The default executor: a private serial `DispatchQueue`.
public struct FalconDispatchQueueExecutor: FalconExecutor {
    private let queue: DispatchQueue

    /// Creates an executor on a new serial queue, or on `queue` (for example `DispatchQueue.main`).
    public init(queue: DispatchQueue = DispatchQueue(label: "us.falconlabs.FalconCore.callbacks")) {
        self.queue = queue
    }

    /// Runs `job` asynchronously on the queue.
    public func enqueue(_ job: @escaping @Sendable () -> Void) {
        queue.async(execute: job)
    }
}
