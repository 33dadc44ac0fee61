import Dispatch

/// The serial executor every host-facing output goes through: callbacks, events, delegate calls, renderer
/// commands and overlay presenter operations.
///
/// The client enqueues the outputs of each execution in the order its state machine emitted them, so a host
/// sees `onShouldShowLoadingIndicator` before the renderer's `load` (or the presenter's `present`), a
/// diagnostic before the callbacks of its failure, and `stop`/`teardown` before `onError`.
///
/// Implementations run jobs one at a time in FIFO order and must never run a job inside `enqueue` itself
/// (the SDK relies on that so nothing reaches the host re-entrantly from inside `execute`). On Apple platforms
/// use `DispatchQueue.main` (`FalconDispatchQueueExecutor(queue: .main)`): the web view and the presenter are
/// then driven on the main thread, where UIKit and WebKit require it.
public protocol FalconExecutor: Sendable {
    /// Schedules `job` to run after every job enqueued before it.
    func enqueue(_ job: @escaping @Sendable () -> Void)
}

/// The default executor: a serial `DispatchQueue`.
///
/// By default it is the main queue on Apple platforms (iOS, iPadOS, macOS, tvOS, watchOS, visionOS), where the iOS
/// SDK dispatches every callback ("All callbacks are dispatched on the main thread") and where a web view must be
/// driven; elsewhere (Linux servers, which have no UI thread) it is a private serial queue. A macOS command-line
/// tool that never services its main queue passes a queue of its own (Docs/Decisions/0107).
public struct FalconDispatchQueueExecutor: FalconExecutor {
    private let queue: DispatchQueue

    /// Creates an executor on `queue`, or on the platform default described above.
    public init(queue: DispatchQueue = FalconDispatchQueueExecutor.defaultQueue()) {
        self.queue = queue
    }

    /// The main queue on Apple platforms, a new private serial queue elsewhere.
    public static func defaultQueue() -> DispatchQueue {
        #if canImport(Darwin)
        return DispatchQueue.main
        #else
        return DispatchQueue(label: "us.falconlabs.FalconCore.callbacks")
        #endif
    }

    /// Runs `job` asynchronously on the queue.
    public func enqueue(_ job: @escaping @Sendable () -> Void) {
        queue.async(execute: job)
    }
}
