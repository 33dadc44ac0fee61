/// What a transport's `ended` hook reported: how long each request took, told on the thread that ended it, before
/// the request's caller resumed. A test's own task can resume much later when the test process's threads are busy
/// (the whole suite under a sanitizer on 2 cores), so a deadline is checked against this figure, not against the
/// time the task took.
final class ReportedRequestDurations: Sendable {
    private let durations: AsyncStream<Duration>
    private let continuation: AsyncStream<Duration>.Continuation

    init() {
        (durations, continuation) = AsyncStream.makeStream(of: Duration.self)
    }

    /// The hook to give the transport or the engine.
    var hook: @Sendable (Duration) -> Void {
        { [continuation] in continuation.yield($0) }
    }

    /// The sum of the reports, read once the request's caller has resumed (every transport reports before that);
    /// nil when nothing was reported. Ends the reports: call it once, after the request.
    func total() async -> Duration? {
        continuation.finish()
        var total: Duration?
        for await took in durations { total = (total ?? .zero) + took }
        return total
    }
}
