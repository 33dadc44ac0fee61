import Dispatch
import SDKCoreCommon

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread that is a serial executor, and the one place the pipeline loop waits.
///
/// The pipeline loop (``PipelineLoop``) runs on it, and so does the default file storage, so a storage call is a
/// plain call on the same thread (no hop to another queue and back). Between turns the loop blocks the thread in
/// ``park(until:holdingSignals:)`` on one condition variable, which ends on a ``wake()`` from a caller (new intake
/// work, an upload's answer, a control call) or at the park's deadline (the loop's timers: the wait's timeout, no
/// timer object). The loop parks by blocking, not by suspending on a continuation: a resumed continuation goes
/// through the shared pool and wakes one of its threads before it comes back here (Docs/Decisions/0218). A thread
/// wake-up is the expensive part of handing one event over, so a park may hold signals: wakes are noted but do
/// not end it before its deadline, and the loop gathers a few milliseconds of events into one turn. While the
/// loop awaits another executor (a storage of the host's), the thread runs the jobs sent to it.
///
/// Only the loop parks, and nothing but the loop's own work is sent to this executor while it is parked (its
/// control calls go through locks), so a park never holds up a job. When the loop ends it calls ``stop()``: the
/// thread runs what is queued and exits; a job that arrives later runs on a serial dispatch queue instead.
///
/// `@unchecked Sendable`: every stored property but the immutable ones is reached only with `mutex` held.
final class LoopThread: SerialExecutor, @unchecked Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        /// The loop is parked; with `holdsSignals`, wakes do not end the park before its deadline.
        var parked = false
        var holdsSignals = false
        /// A wake arrived that no park has consumed yet.
        var wakeRequested = false
        /// The thread is blocked on the condition variable.
        var waiting = false
        var stopping = false
        var exited = false
        /// Times the thread returned from the condition variable.
        var wakeUps = 0
    }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var state = State()
    /// Runs jobs once the thread has exited (or when it could not be created).
    private let fallback: DispatchQueue

    /// Creates the executor and starts its thread.
    init(label: String) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        #if canImport(Darwin)
        pthread_cond_init(condition, nil)
        #else
        // Timed waits measure on the monotonic clock, which a wall-clock change does not move.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        #endif
        fallback = DispatchQueue(label: label)
        // A small stack: the loop's frames live on the heap (it is async), and encoding and file I/O need little.
        if !DetachedThread.start(stackSize: 1 << 20, { [self] in runJobs() }) {
            state.exited = true
        }
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    // MARK: Executor

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(mutex)
        guard !state.exited else {
            pthread_mutex_unlock(mutex)
            let executor = asUnownedSerialExecutor()
            fallback.async { job.runSynchronously(on: executor) }
            return
        }
        state.jobs.append(job)
        // A parked loop is not woken for a job: the job runs once the loop's turn awaits or ends.
        let signal = state.waiting && !state.parked
        pthread_mutex_unlock(mutex)
        if signal { pthread_cond_broadcast(condition) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    // MARK: The loop's side

    /// Asks the loop to take a turn: ends its park now, unless the park holds signals (then at its deadline).
    /// Called from any thread; cheap when the loop is awake (a flag under the lock, no system call). Signals are
    /// broadcast: were a park made on another thread than this executor's (a test does), the thread waiting for
    /// jobs must not take the wake meant for it.
    func wake() {
        pthread_mutex_lock(mutex)
        state.wakeRequested = true
        let signal = state.waiting && state.parked && !state.holdsSignals
        pthread_mutex_unlock(mutex)
        if signal { pthread_cond_broadcast(condition) }
    }

    /// Blocks the calling thread (the loop's turn, on this executor) until a ``wake()`` or `deadline`; with
    /// `holdingSignals`, wakes only note that work is waiting and the park lasts until `deadline`. Returns at
    /// once when a wake arrived since the last park (and signals are not held) or the deadline has passed. The
    /// wake is consumed: the turn that follows takes everything pending.
    func park(until deadline: ContinuousClock.Instant?, holdingSignals: Bool = false) {
        let holds = holdingSignals && deadline != nil
        pthread_mutex_lock(mutex)
        state.parked = true
        state.holdsSignals = holds
        while !(state.wakeRequested && !holds) {
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { break }
                state.waiting = true
                waitOnCondition(for: left)
            } else {
                state.waiting = true
                pthread_cond_wait(condition, mutex)
            }
            state.waiting = false
            state.wakeUps += 1
        }
        state.wakeRequested = false
        state.parked = false
        state.holdsSignals = false
        pthread_mutex_unlock(mutex)
    }

    /// The loop has ended: the thread runs the jobs queued and exits.
    func stop() {
        pthread_mutex_lock(mutex)
        state.stopping = true
        let signal = state.waiting
        pthread_mutex_unlock(mutex)
        if signal { pthread_cond_broadcast(condition) }
    }

    /// How often the thread has woken from its wait so far (for the tests that an idle loop sleeps).
    var wakeUps: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return state.wakeUps
    }

    // MARK: The thread

    private func runJobs() {
        let executor = asUnownedSerialExecutor()
        pthread_mutex_lock(mutex)
        while true {
            if !state.jobs.isEmpty {
                let jobs = state.jobs
                state.jobs.removeAll(keepingCapacity: true)
                pthread_mutex_unlock(mutex)
                for job in jobs { job.runSynchronously(on: executor) }
                pthread_mutex_lock(mutex)
                continue
            }
            if state.stopping {
                state.exited = true
                pthread_mutex_unlock(mutex)
                return
            }
            state.waiting = true
            pthread_cond_wait(condition, mutex)
            state.waiting = false
            state.wakeUps += 1
        }
    }

    /// Waits on the condition for at most `timeout` (the mutex held, as `pthread_cond_wait` needs).
    private func waitOnCondition(for timeout: Duration) {
        let nanoseconds = Self.nanoseconds(timeout)
        #if canImport(Darwin)
        var relative = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        pthread_cond_timedwait_relative_np(condition, mutex, &relative)
        #else
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let total = Int(now.tv_nsec) + nanoseconds % 1_000_000_000
        var until = timespec()
        until.tv_sec = now.tv_sec + nanoseconds / 1_000_000_000 + total / 1_000_000_000
        until.tv_nsec = total % 1_000_000_000
        pthread_cond_timedwait(condition, mutex, &until)
        #endif
    }

    /// `duration` in whole nanoseconds, at least zero and at most about 30 years (so sums cannot overflow).
    private static func nanoseconds(_ duration: Duration) -> Int {
        let parts = min(max(duration, .zero), .seconds(1 << 30)).components
        return Int(parts.seconds) * 1_000_000_000 + Int(parts.attoseconds / 1_000_000_000)
    }
}
