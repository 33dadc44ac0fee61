import Dispatch
import SDKCoreCommon

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(CLoopTimer)
import CLoopTimer
#endif

/// One thread that is a serial executor, and the one place the pipeline loop waits.
///
/// The pipeline loop (``PipelineLoop``) runs on it, and so does the default file storage, so a storage call is a
/// plain call on the same thread (no hop to another queue and back). Between turns the loop blocks the thread in a
/// park, which ends on a ``signalWork()`` (new intake work) or a ``wake()`` (an upload's answer, a shutdown, a purge,
/// a control call) or at the park's deadline (the loop's timers: the wait's timeout, no timer object). The loop
/// parks by blocking, not by suspending on a continuation: a resumed continuation goes through the shared pool and
/// wakes one of its threads before it comes back here (Docs/Decisions/0218).
///
/// A thread wake-up is the expensive part of handing one event over, so the loop wakes once per group of events
/// (``LoopGathering``, Docs/Decisions/0230). On Linux a park waits on a one-shot timer (`timerfd`, through the
/// `CLoopTimer` shim) that any thread can arm, and the loop parks with
/// ``park(timeoutNanoseconds:signalDelayNanoseconds:)``: with a signal delay, the first ``signalWork()`` of a park arms
/// the timer that far ahead (one system call on the caller, no wake-up) and later ones do nothing: the loop wakes once,
/// the delay after the group's first event. Elsewhere (Apple platforms, or Linux without the timer) a park waits on a
/// condition variable, the loop parks with ``park(until:holdingSignals:)`` and may hold signals instead: they are noted
/// but do not end it before its deadline (a gathering window). Work that must not wait (an upload's answer, a shutdown,
/// a purge, a control call, a deadline on a test's clock) ends any park with ``wake()``. While the loop awaits another
/// executor (a storage of the host's), the thread runs the jobs sent to it.
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
        /// That wake must end even a park that holds signals.
        var wakeIsUrgent = false
        /// On the timer: how long after its first signal of work the current park ends, in nanoseconds (worked out
        /// as the loop parks: the caller that arms the timer pays no `Duration` arithmetic on its own thread).
        var signalDelayNanoseconds: Int?
        /// The timer is armed (by a signal, a wake, or a signal that came before the park) and was not read yet.
        var timerArmed = false
        /// The timer fired during the current park.
        var timerFired = false
        /// The thread is blocked on the condition variable.
        var waiting = false
        var stopping = false
        var exited = false
        /// Times the thread returned from the condition variable.
        var wakeUps = 0
        /// Who waits for the thread to exit (``waitUntilExited()``).
        var exitWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var state = State()
    /// Runs jobs once the thread has exited (or when it could not be created).
    private let fallback: DispatchQueue
    /// The timer parks wait on (Linux), or -1: then parks wait on the condition variable.
    private let timer: Int32

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
        #if canImport(CLoopTimer)
        timer = cloop_timer_create()
        #else
        timer = -1
        #endif
        // A small stack: the loop's frames live on the heap (it is async), and encoding and file I/O need little.
        if !DetachedThread.start(stackSize: 1 << 20, { [self] in runJobs() }) {
            state.exited = true
        }
    }

    deinit {
        #if canImport(CLoopTimer)
        if timer >= 0 { cloop_timer_close(timer) }
        #endif
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

    /// Whether a park can delay the loop's wake-up after a signal of work (`signalDelay`): on Linux, where parks
    /// wait on a timer any thread can arm. Elsewhere the loop gathers with parks that hold signals.
    var delaysSignals: Bool { timer >= 0 }

    /// Asks the loop to take a turn now: ends its park, even one that holds or delays signals. For work that must
    /// not wait (an upload's answer, a shutdown, a purge, a control call, a deadline on a test's clock). Called
    /// from any thread; cheap when the loop is awake (a flag under the lock, no system call). Condition signals are
    /// broadcast: were a park made on another thread than this executor's (a test does), the thread waiting for
    /// jobs must not take the wake meant for it.
    func wake() {
        request(urgent: true)
    }

    /// Tells the loop that new events wait (the intake's signal). A park that delays signals ends `signalDelay`
    /// after the first one (the caller arms the timer: one system call, no wake-up); a park that holds
    /// signals takes the work when its window ends (no system call); any other park ends now.
    func signalWork() {
        request(urgent: false)
    }

    /// Forgets the signals of work that came since the last park, while the loop is not parked: the loop is about
    /// to take the work they announced (``LoopInbox/intakeWillBeDrained()``). A ``wake()`` is kept.
    func withdrawSignals() {
        pthread_mutex_lock(mutex)
        if state.wakeRequested, !state.wakeIsUrgent, !state.parked { state.wakeRequested = false }
        pthread_mutex_unlock(mutex)
    }

    private func request(urgent: Bool) {
        pthread_mutex_lock(mutex)
        state.wakeRequested = true
        if urgent { state.wakeIsUrgent = true }
        guard state.parked else {
            pthread_mutex_unlock(mutex)
            return
        }
        if timer >= 0 {
            // Armed under the lock, so that the park's disarming at its end cannot overtake it.
            if urgent || (!state.holdsSignals && state.signalDelayNanoseconds == nil) {
                armTimer(nanoseconds: 0)
            } else if !state.holdsSignals, let delay = state.signalDelayNanoseconds, !state.timerArmed {
                armTimer(nanoseconds: delay)
            }
            pthread_mutex_unlock(mutex)
            return
        }
        let signal = state.waiting && (urgent || !state.holdsSignals)
        pthread_mutex_unlock(mutex)
        if signal { pthread_cond_broadcast(condition) }
    }

    /// Arms the timer to fire `nanoseconds` from now (the mutex held).
    private func armTimer(nanoseconds: Int) {
        #if canImport(CLoopTimer)
        _ = cloop_timer_arm(timer, Int64(nanoseconds))
        state.timerArmed = true
        #endif
    }

    /// Blocks the calling thread (the loop's turn, on this executor) until a ``wake()``, a ``signalWork()`` or
    /// `deadline`. With `holdingSignals` (and a deadline), ``signalWork()`` only notes that work is waiting and the
    /// park lasts until `deadline` or a ``wake()``. Returns at once when a ``wake()`` came since the last park or the
    /// deadline has passed; a ``signalWork()`` that came since the last park counts as made when this one begins.
    /// The call is consumed: the turn that follows takes everything pending.
    ///
    /// The loop's park where the thread does not delay signals (it gathers with held parks instead), and on a
    /// test's manual clock (no deadline: the clock's timer wakes it); elsewhere it is the nanosecond park below.
    func park(until deadline: ContinuousClock.Instant?, holdingSignals: Bool = false) {
        let holds = holdingSignals && deadline != nil
        // The time left is read before the monotonic clock: the deadline can only come out late by the nanoseconds
        // between the two reads, never early.
        let until = deadline.map { deadline in
            let left = Self.nanoseconds(ContinuousClock.now.duration(to: deadline))
            return Self.monotonicNanoseconds() + left
        }
        park(untilMonotonic: until, holdingSignals: holds, signalDelayNanoseconds: nil)
    }

    /// Parks like ``park(until:holdingSignals:)`` without holding signals, with the deadline `timeoutNanoseconds`
    /// from now. With `signalDelayNanoseconds` (where ``delaysSignals``; ignored elsewhere), the first
    /// ``signalWork()`` ends the park that much later (or at the deadline, if sooner). The loop's usual park on
    /// Linux, which handles no `ContinuousClock.Instant` (a type of the standard library whose optional the compiler
    /// copies and destroys through its runtime metadata, a measurable share of a turn) and converts no `Duration`.
    func park(timeoutNanoseconds: Int?, signalDelayNanoseconds: Int?) {
        let until = timeoutNanoseconds.map { Self.monotonicNanoseconds() + min(max($0, 0), Self.longestWait) }
        park(untilMonotonic: until, holdingSignals: false, signalDelayNanoseconds: signalDelayNanoseconds)
    }

    /// The park itself, its deadline on the monotonic clock (``monotonicNanoseconds()``).
    private func park(untilMonotonic deadline: Int?, holdingSignals: Bool, signalDelayNanoseconds: Int?) {
        let delay = holdingSignals || timer < 0 ? nil : signalDelayNanoseconds
        pthread_mutex_lock(mutex)
        state.parked = true
        state.holdsSignals = holdingSignals
        state.signalDelayNanoseconds = delay
        if timer >= 0 {
            parkOnTimer(until: deadline)
        } else {
            parkOnCondition(until: deadline)
        }
        state.wakeRequested = false
        state.wakeIsUrgent = false
        state.parked = false
        state.holdsSignals = false
        state.signalDelayNanoseconds = nil
        pthread_mutex_unlock(mutex)
    }

    /// The park on the condition variable (the mutex held).
    private func parkOnCondition(until deadline: Int?) {
        while !(state.wakeRequested && (state.wakeIsUrgent || !state.holdsSignals)) {
            if let deadline {
                let left = deadline - Self.monotonicNanoseconds()
                guard left > 0 else { break }
                state.waiting = true
                waitOnCondition(nanoseconds: left)
            } else {
                state.waiting = true
                pthread_cond_wait(condition, mutex)
            }
            state.waiting = false
            state.wakeUps += 1
        }
    }

    /// The park on the timer (the mutex held, released while waiting). Callers end it by arming the timer.
    private func parkOnTimer(until deadline: Int?) {
        #if canImport(CLoopTimer)
        // A signal of work that came before the park: its delay runs from now.
        if state.wakeRequested, !state.wakeIsUrgent, !state.holdsSignals, let delay = state.signalDelayNanoseconds {
            armTimer(nanoseconds: delay)
        }
        while true {
            if state.wakeRequested, state.wakeIsUrgent { break }
            if state.wakeRequested, !state.holdsSignals, state.signalDelayNanoseconds == nil || state.timerFired {
                break
            }
            var timeout = -1
            if let deadline {
                let left = deadline - Self.monotonicNanoseconds()
                guard left > 0 else { break }
                timeout = left
            }
            state.waiting = true
            pthread_mutex_unlock(mutex)
            let fired = cloop_timer_wait(timer, Int64(timeout)) == 1
            pthread_mutex_lock(mutex)
            state.waiting = false
            state.wakeUps += 1
            if fired {
                state.timerArmed = false
                state.timerFired = true
            }
        }
        // A timer still armed (the park ended at its deadline, or a wake came first) must not end the next park.
        if state.timerArmed {
            _ = cloop_timer_disarm(timer)
            state.timerArmed = false
        }
        state.timerFired = false
        #endif
    }

    /// The loop has ended: the thread runs the jobs queued and exits.
    func stop() {
        pthread_mutex_lock(mutex)
        state.stopping = true
        let signal = state.waiting
        pthread_mutex_unlock(mutex)
        if signal { pthread_cond_broadcast(condition) }
    }

    /// The name the thread gives itself where it can (Linux): what `top -H`, `perf` and `/proc/<pid>/task/*/comm` show.
    static let threadName = "binoban-loop"

    /// Returns once the thread has exited (at once when it has, or never started). The loop's end is observable
    /// this way without holding the loop: the tests that an instance released without a shutdown stops use it.
    func waitUntilExited() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            pthread_mutex_lock(mutex)
            let exited = state.exited
            if !exited { state.exitWaiters.append(continuation) }
            pthread_mutex_unlock(mutex)
            if exited { continuation.resume() }
        }
    }

    /// How often the thread has woken from its wait so far (for the tests that an idle loop sleeps).
    var wakeUps: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return state.wakeUps
    }

    // MARK: The thread

    private func runJobs() {
        #if canImport(CLoopTimer)
        // Otherwise the thread keeps the name of the one that started it (often a pool thread's).
        cloop_name_thread(Self.threadName)
        #endif
        let executor = asUnownedSerialExecutor()
        // Swapped with the queue, so both keep their buffers (a copy of the queue allocated for every batch of jobs).
        var running: [UnownedJob] = []
        pthread_mutex_lock(mutex)
        while true {
            if !state.jobs.isEmpty {
                swap(&running, &state.jobs)
                pthread_mutex_unlock(mutex)
                for job in running { job.runSynchronously(on: executor) }
                running.removeAll(keepingCapacity: true)
                pthread_mutex_lock(mutex)
                continue
            }
            if state.stopping {
                state.exited = true
                let waiters = state.exitWaiters
                state.exitWaiters = []
                pthread_mutex_unlock(mutex)
                for waiter in waiters { waiter.resume() }
                return
            }
            state.waiting = true
            pthread_cond_wait(condition, mutex)
            state.waiting = false
            state.wakeUps += 1
        }
    }

    /// Waits on the condition for at most `nanoseconds` (the mutex held, as `pthread_cond_wait` needs).
    private func waitOnCondition(nanoseconds: Int) {
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

    /// The longest wait, about 30 years (so sums with the current time cannot overflow).
    private static let longestWait = (1 << 30) * 1_000_000_000

    /// The monotonic clock (which a wall-clock change does not move) in nanoseconds: where parks keep their
    /// deadlines.
    static func monotonicNanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec)
    }

    /// `duration` in whole nanoseconds, at least zero and at most about 30 years (so sums cannot overflow).
    static func nanoseconds(_ duration: Duration) -> Int {
        let parts = min(max(duration, .zero), .seconds(1 << 30)).components
        return Int(parts.seconds) * 1_000_000_000 + Int(parts.attoseconds / 1_000_000_000)
    }
}
