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
