import Dispatch

/// The default executor: a serial `DispatchQueue`.
///
/// By default it is the main queue on Apple platforms (iOS, iPadOS, macOS, tvOS, watchOS, visionOS), where the iOS
/// SDK dispatches every callback ("All callbacks are dispatched on the main thread") and where a web view must be
/// driven; elsewhere (Linux servers, which have no UI thread) it is a private serial queue. A macOS command-line
/// tool that never services its main queue passes a queue of its own (Docs/Decisions/0107).
///
/// Jobs run one at a time, in the order they were enqueued on this executor (and its copies, which share one
/// inbox), never inside ``enqueue(_:)``. A burst of jobs shares one Dispatch block: the block runs the jobs
/// enqueued before it starts and those enqueued while it runs; once it has run 64 it yields the queue to other
/// work and continues in a new block. An execute's outputs therefore cost one queue turn instead of one per
/// output, and far fewer thread wake-ups (Docs/Decisions/0109).
public struct FalconDispatchQueueExecutor: FalconExecutor {
    /// How many jobs one Dispatch block runs at most before it yields the queue (the main thread stays
    /// responsive under a long burst).
    static let jobsPerTurn = 64

    private let queue: DispatchQueue
    private let inbox = JobInbox()

    /// Creates an executor on `queue`, or on the platform default described above.
    public init(queue: DispatchQueue = FalconDispatchQueueExecutor.defaultQueue()) {
        self.queue = queue
    }

    /// The main queue on Apple platforms, a new private serial queue elsewhere.
    @usableFromInline package static func defaultQueue() -> DispatchQueue {
        #if canImport(Darwin)
        return DispatchQueue.main
        #else
        return DispatchQueue(label: "us.falconlabs.FalconCore.callbacks")
        #endif
    }

    /// Queues `job` behind every job enqueued before it; schedules a Dispatch block only when none is
    /// pending or running.
    public func enqueue(_ job: @escaping @Sendable () -> Void) {
        if inbox.append(job) { Self.schedule(inbox, on: queue) }
    }

    private static func schedule(_ inbox: JobInbox, on queue: DispatchQueue) {
        queue.async {
            if inbox.run(limit: jobsPerTurn) { schedule(inbox, on: queue) }
        }
    }
}

extension FalconDispatchQueueExecutor {
    /// The jobs waiting for the executor's Dispatch block, and whether one is scheduled.
    ///
    /// At most one block is scheduled or running at a time, so the jobs run serially, in append order.
    final class JobInbox: Sendable {
        /// One job as the inbox stores it. A closure kept in an array of closures is stored at the generic
        /// (maximally abstract) calling convention, so appending one allocates a reabstraction thunk and calling
        /// it goes through that thunk; a closure field of a struct keeps its own convention: no allocation.
        struct Job {
            let run: @Sendable () -> Void
        }

        private struct State {
            /// Jobs not yet taken start at `head`.
            var jobs: [Job] = []
            var head = 0
            var scheduled = false
            /// The running block's batch buffer while no block runs (emptied, its storage kept): swapping it
            /// for `jobs` gives `jobs` storage again, so the next burst does not grow a new array from nothing.
            var spareBatch: [Job] = []
        }

        private let state = LockedValue(State())

        /// Appends `job`; `true` when no block is scheduled, so the caller must schedule one.
        func append(_ job: @escaping @Sendable () -> Void) -> Bool {
            let job = Job(run: job)
            return state.withLock { state in
                state.jobs.append(job)
                if state.scheduled { return false }
                state.scheduled = true
                return true
            }
        }

        /// Runs the queued jobs, and the ones appended meanwhile, until none is left or `limit` have run.
        ///
        /// Returns `true` when jobs remain: the block stays scheduled and the caller schedules the next one.
        func run(limit: Int) -> Bool {
            var batch: [Job] = []
            var holdsSpare = false
            var ran = 0
            while true {
                let more = state.withLock { state -> Bool in
                    if !holdsSpare {
                        swap(&batch, &state.spareBatch)
                        holdsSpare = true
                    }
                    let pending = state.jobs.count - state.head
                    if pending == 0 {
                        // A burst's storage is not kept once the queue is idle.
                        state.jobs.removeAll(keepingCapacity: state.jobs.capacity <= 1024)
                        state.head = 0
                        state.scheduled = false
                        if batch.capacity <= 1024 { swap(&batch, &state.spareBatch) }
                        return false
                    }
                    if ran == limit { return true }
                    let take = min(pending, limit - ran)
                    if state.head == 0, take == pending {
                        // The common case: every queued job fits; the two buffers change places (no copy).
                        swap(&state.jobs, &batch)
                    } else {
                        batch.append(contentsOf: state.jobs[state.head..<(state.head + take)])
                        state.head += take
                        // Taken jobs are released in bulk once they are the larger part (amortised O(1) each).
                        if state.head >= 256, 2 * state.head >= state.jobs.count {
                            state.jobs.removeFirst(state.head)
                            state.head = 0
                        }
                    }
                    return true
                }
                guard more else { return false }
                if batch.isEmpty { return true }  // the limit was reached with jobs still queued
                for job in batch { job.run() }
                ran += batch.count
                batch.removeAll(keepingCapacity: true)
            }
        }
    }
}
