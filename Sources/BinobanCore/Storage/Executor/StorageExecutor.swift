import Dispatch

/// A serial executor on its own dispatch queue, for actors that do blocking file I/O (write, fdatasync,
/// rename, identity load and save), so that it never runs on Swift's cooperative thread pool, whose few
/// threads every other task of the host shares. NIO's `NIOThreadPool` keeps blocking I/O off the event loops
/// for the same reason.
final class StorageExecutor: SerialExecutor {
    private let queue: DispatchQueue

    /// Creates an executor with its own serial queue.
    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
