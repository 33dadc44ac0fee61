import BinobanCore
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the first SIGINT or SIGTERM into a flag the sender checks between lines, and into the actions given to
/// ``whenReceived(_:)`` (the final flush is cancelled by one); the sender then stops and shuts down with a short
/// deadline. A second signal ends the process at once with the default action.
final class SignalWatch: Sendable {
    private struct State {
        var received = false
        /// The first signal's number.
        var number: Int32?
        var actions: [@Sendable () -> Void] = []
    }

    private let state = LockedValue(State())
    private let sources: LockedValue<[any DispatchSourceSignal]> = LockedValue([])
    private let queue = DispatchQueue(label: "sdkcore.binoban.send.signals")

    /// Starts watching SIGINT and SIGTERM, and returns once both sources are registered (at most 2 s).
    ///
    /// Registration happens on Dispatch's own thread after `resume()`: a signal arriving before it would meet
    /// `SIG_IGN` and be lost. Waiting here keeps that window inside the start-up, before anything was read or
    /// printed, so a signal sent after the tool's first line is always seen (a test that signalled right after
    /// the first line sometimes lost its SIGINT under load).
    init() {
        var installed: [any DispatchSourceSignal] = []
        let registered = DispatchGroup()
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [state] in
                signal(SIGINT, SIG_DFL)
                signal(SIGTERM, SIG_DFL)
                let actions = state.withLock { state -> [@Sendable () -> Void] in
                    guard !state.received else { return [] }
                    state.received = true
                    state.number = number
                    defer { state.actions = [] }
                    return state.actions
                }
                for action in actions { action() }
            }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            installed.append(source)
        }
        sources.withLock { $0 = installed }
        _ = registered.wait(timeout: .now() + 2)
    }

    /// Whether a signal arrived.
    var received: Bool { state.withLock { $0.received } }

    /// The first signal's number (`SIGINT` or `SIGTERM`), once one arrived.
    var number: Int32? { state.withLock { $0.number } }

    /// Runs `action` once when the first signal arrives, or now when it already has.
    func whenReceived(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.received { return true }
            state.actions.append(action)
            return false
        }
        if now { action() }
    }
}
