/// Waits for one awaited server call of a scenario to hand its event over: resumed once, by the admission, or by
/// the call's own return when the instance took nothing (a disabled instance reports no admission). A call that
/// returns later, while the next call waits, does not resume that one: each wait has its number.
package final class Handover: Sendable {
    private struct State {
        var number: UInt64 = 0
        var waiting: CheckedContinuation<Void, Never>?
    }

    private let state = LockedValue(State())

    /// A handover with no call waiting.
    package init() {}

    /// Runs `start` with the waiter in place, passing it this wait's number, and returns once it is resumed.
    package func wait(_ start: (UInt64) -> Void) async {
        await withCheckedContinuation { continuation in
            let number = state.withLock { state in
                state.number += 1
                state.waiting = continuation
                return state.number
            }
            start(number)
        }
    }

    /// The intake took or refused the waiting call's event.
    package func admitted() { resume { _ in true } }

    /// The call of wait `number` returned.
    package func returned(_ number: UInt64) { resume { $0 == number } }

    private func resume(if matches: (UInt64) -> Bool) {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard matches(state.number) else { return nil }
            defer { state.waiting = nil }
            return state.waiting
        }?.resume()
    }
}
