import BinobanCore
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the first SIGINT or SIGTERM into a flag the sender checks between lines (it then stops reading and
/// shuts down with a short deadline); a second signal ends the process at once with the default action.
final class SignalWatch: Sendable {
    private let flag = LockedValue(false)
    private let sources: LockedValue<[any DispatchSourceSignal]> = LockedValue([])
    private let queue = DispatchQueue(label: "sdkcore.binoban.send.signals")

    /// Starts watching SIGINT and SIGTERM.
    init() {
        var installed: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [flag] in
                flag.withLock { $0 = true }
                signal(SIGINT, SIG_DFL)
                signal(SIGTERM, SIG_DFL)
            }
            source.resume()
            installed.append(source)
        }
        sources.withLock { $0 = installed }
    }

    /// Whether a signal arrived.
    var received: Bool { flag.withLock { $0 } }
}
