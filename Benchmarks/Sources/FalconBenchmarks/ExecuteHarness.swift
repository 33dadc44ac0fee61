import BenchmarkSupport
import Dispatch
import FalconCore

/// How the benchmark's web view answers a `load`, and so which terminal state each execution reaches.
enum Outcome: String, Sendable, CaseIterable {
    /// `loaded`, then the host tears the surface down: cancelled (the workload).
    case loadedThenTeardown = "loaded, then host teardown (cancelled)"
    /// `noFill`: settles without content.
    case noFill = "noFill"
    /// `loaded`, then the content closes the placement: unloaded.
    case loadedThenClose = "loaded, then close (unloaded)"
    /// The main-frame response is HTTP 500: failed (one error log line and one beacon attempt each).
    case httpError = "HTTP 500 (failed)"
}

/// Counts the executions of one window down to zero and wakes the host thread once.
final class Window: Sendable {
    private let remaining = HarnessLock(0)
    private let done = DispatchSemaphore(value: 0)

    func begin(_ count: Int) { remaining.withLock { $0 = count } }

    func settled() {
        let last = remaining.withLock { count -> Bool in
            count -= 1
            return count == 0
        }
        if last { done.signal() }
    }

    func wait() { done.wait() }
}

/// The host's web view: answers `load` as the outcome says, on the executor, like a page that loads at once.
final class BenchSurface: FalconInlineSurface {
    let outcome: Outcome
    let window: Window

    init(outcome: Outcome, window: Window) {
        self.outcome = outcome
        self.window = window
    }

    static let loaded: JSONValue = ["type": "event", "name": "loaded", "data": ["height": 120]]
    static let noFill: JSONValue = ["type": "event", "name": "noFill"]
    static let close: JSONValue = ["type": "event", "name": "close"]

    func perform(_ request: FalconRenderRequest) {
        switch request.command {
        case .load:
            switch outcome {
            case .loadedThenTeardown:
                request.reporter.bridgeMessage(Self.loaded)
                request.reporter.hostTeardown()
            case .noFill:
                request.reporter.bridgeMessage(Self.noFill)
            case .loadedThenClose:
                request.reporter.bridgeMessage(Self.loaded)
                request.reporter.bridgeMessage(Self.close)
            case .httpError:
                request.reporter.navigationResponse(navigationID: 1, isMainFrame: true, status: 500)
            }
        case .teardown:
            if outcome == .loadedThenTeardown { window.settled() }
        default:
            break
        }
    }
}

/// Runs `count` executes on a client with the default dependencies, `windowSize` at a time on as many
/// surfaces (a new execute on a surface starts once the previous one there has settled), and returns when
/// every one has reached its terminal state.
func runExecutes(
    _ count: Int, outcome: Outcome, on client: FalconClient, windowSize: Int = 1000,
    callerRun executor: CallerRunExecutor? = nil
) {
    let window = Window()
    let surfaces = (0..<windowSize).map { _ in BenchSurface(outcome: outcome, window: window) }
    let settled: @Sendable () -> Void = { window.settled() }
    var started = 0
    while started < count {
        let batch = min(windowSize, count - started)
        window.begin(batch)
        for surface in surfaces.prefix(batch) {
            switch outcome {
            case .loadedThenTeardown:
                client.execute(attributes: Workload.attributes, placement: .inline(surface), style: Workload.style)
            case .noFill:
                client.execute(
                    attributes: Workload.attributes, placement: .inline(surface), style: Workload.style,
                    onShouldHideLoadingIndicator: settled)
            case .loadedThenClose:
                client.execute(
                    attributes: Workload.attributes, placement: .inline(surface), style: Workload.style,
                    onUnload: settled)
            case .httpError:
                client.execute(
                    attributes: Workload.attributes, placement: .inline(surface), style: Workload.style,
                    onError: { _ in settled() })
            }
        }
        if let executor {
            executor.runAll()
        } else {
            window.wait()
        }
        started += batch
    }
}

/// A client at the default configuration (system clock, Dispatch executor, UUID session ids, the platform's
/// beacon transport and log sink), initialised with the workload's API key and mapping.
///
/// With `executor`, host-facing jobs run on the caller's thread when it calls `runAll()`: the SDK's own work,
/// without the Dispatch queue's thread wake-ups.
func makeClient(executor: CallerRunExecutor? = nil) -> FalconClient {
    let client = executor.map { FalconClient(dependencies: FalconClientDependencies(executor: $0)) } ?? FalconClient()
    client.initSdk(apiKey: Workload.apiKey, config: Workload.config)
    return client
}

/// A FIFO executor whose jobs run when the host thread calls ``runAll()`` (cheap at any queue length).
final class CallerRunExecutor: FalconExecutor {
    private let jobs = HarnessLock<[@Sendable () -> Void]>([])

    func enqueue(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
    }

    /// Runs jobs, including the ones they enqueue, until none is left.
    func runAll() {
        while true {
            let batch = jobs.withLock { jobs -> [@Sendable () -> Void] in
                defer { jobs = [] }
                return jobs
            }
            if batch.isEmpty { return }
            for job in batch { job() }
        }
    }
}
