import BenchmarkSupport
import BinobanCore

/// Tracks events at a steady rate (in ticks of 10 ms, catching up when a tick comes late) until it is told to
/// stop or reaches its bound; the count of events tracked is readable at any time.
final class PacedProducer: Sendable {
    private let tracked = Locked(0)
    private let stopped = Locked(false)

    /// Events tracked so far.
    var count: Int { tracked.withLock { $0 } }

    /// Asks the producer to stop after its current tick.
    func stop() {
        stopped.withLock { $0 = true }
    }

    /// Tracks `perSecond` events a second into `binoban` with the synchronous `track()`, for at most
    /// `maxSeconds` seconds, until ``stop()``. With `tracking` false it keeps the same ticks and counts but calls
    /// no `track()`: what the calling loop alone costs.
    func run(into binoban: Binoban, perSecond: Int, maxSeconds: Int, tracking: Bool = true) async {
        let clock = ContinuousClock()
        let start = clock.now
        let limit = perSecond * maxSeconds
        var next = start
        while !stopped.withLock({ $0 }) {
            let elapsed = seconds(from: start, to: clock.now)
            let due = min(limit, Int(elapsed * Double(perSecond)))
            var index = count
            while index < due {
                if tracking {
                    binoban.track(name: CountingIngest.benchEventName, properties: DefaultInstance.properties(index))
                }
                index += 1
            }
            tracked.withLock { $0 = index }
            if index >= limit { break }
            next = next.advanced(by: .milliseconds(10))
            try? await Task.sleep(until: next, clock: clock)
        }
    }
}
