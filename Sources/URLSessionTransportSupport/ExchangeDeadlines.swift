import Foundation
import SDKCoreCommon

/// The wall-clock deadlines of every ``ExchangeCall`` in the process, on one Dispatch timer.
///
/// A `DispatchQueue.asyncAfter` per request made a timer source per request: arming it woke Dispatch's manager
/// thread, and cancelling the work item left the source pending until its time (60 s by default), when it woke a
/// thread again to run nothing. Here a request's deadline is an entry in a ``DeadlineSchedule``; the one timer is
/// set again only when the schedule asks (a deadline earlier than the one it waits for, or when it fires).
///
/// The timer fires on a serial queue of its own, which Dispatch serves with a thread even when every thread of
/// the global queues is blocked (a host's, or a test's, blocking work there once held a 2 s deadline for over a
/// minute).
final class ExchangeDeadlines: Sendable {
    /// The process's deadlines, shared by every exchange.
    static let shared = ExchangeDeadlines()

    private struct State {
        var schedule = DeadlineSchedule<UInt64>()
        var calls: [UInt64: ExchangeCall] = [:]
        var lastToken: UInt64 = 0
    }

    private let state = LockedValue(State())
    /// The timer, under a lock because `DispatchSourceTimer` is not `Sendable`; it is set only while `state`'s
    /// lock is held, so that the time it is set for always matches the schedule's.
    private let timer: LockedValue<any DispatchSourceTimer>

    private init() {
        let queue = DispatchQueue(label: "sdk-core.urlsession-exchange.deadlines")
        let source = DispatchSource.makeTimerSource(queue: queue)
        timer = LockedValue(source)
        source.setEventHandler { [weak self] in self?.fire() }
        source.activate()
    }

    /// Registers `call`'s deadline, `seconds` from now; the returned token forgets it (``remove(_:)``).
    func add(_ call: ExchangeCall, after seconds: TimeInterval) -> UInt64 {
        let deadline = DispatchTime.now() + seconds
        return state.withLock { state in
            state.lastToken &+= 1
            let token = state.lastToken
            state.calls[token] = call
            if let fireAt = state.schedule.add(token, deadline: deadline.uptimeNanoseconds) {
                set(fireAt)
            }
            return token
        }
    }

    /// Forgets a deadline whose request has ended; its call is released at once.
    func remove(_ token: UInt64) {
        let call = state.withLock { state in
            state.schedule.remove(token)
            return state.calls.removeValue(forKey: token)
        }
        withExtendedLifetime(call) {}  // released here, outside the lock
    }

    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.withLock { state -> [ExchangeCall] in
            let (keys, next) = state.schedule.fire(at: now)
            if let next { set(next) }
            return keys.compactMap { state.calls.removeValue(forKey: $0) }
        }
        for call in due { call.handle(.deadlinePassed) }
    }

    /// Sets the timer for `uptimeNanoseconds`, once, without leeway. Called with `state`'s lock held.
    private func set(_ uptimeNanoseconds: UInt64) {
        // A leeway of `.never` would be the longest, not none: Dispatch may then fire the timer arbitrarily late.
        let deadline = DispatchTime(uptimeNanoseconds: uptimeNanoseconds)
        timer.withLock { $0.schedule(deadline: deadline, leeway: .nanoseconds(0)) }
    }
}
