#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A renderer that records every command into the scenario's outputs and reports only when a step says so.
final class ScenarioSurface: FalconInlineSurface {
    private struct State {
        var reporter: FalconExecutionReporter?
        var navigationID = 0
    }

    let name: String
    private let recorder: ScenarioRecorder
    private let state = LockedValue(State())

    init(name: String, recorder: ScenarioRecorder) {
        self.name = name
        self.recorder = recorder
    }

    func perform(_ request: FalconRenderRequest) {
        let surface = JSONValue.string(name)
        switch request.command {
        case .load(let url, let navigationID):
            state.withLock {
                $0.reporter = request.reporter
                $0.navigationID = navigationID
            }
            recorder.record("load", ["surface": surface, "url": .string(url.absoluteString)])
        case .stop:
            recorder.record("stop", ["surface": surface])
        case .setContentHeight(let height):
            recorder.record("setContentHeight", ["surface": surface, "height": Self.number(height)])
        case .teardown:
            recorder.record("teardown", ["surface": surface])
        case .openExternally(let url):
            recorder.record("openExternally", ["surface": surface, "url": .string(url.absoluteString)])
        }
    }

    /// The reporter and navigation id of the last `load`, or `nil` before the first one.
    var lastLoad: (reporter: FalconExecutionReporter, navigationID: Int)? {
        state.withLock { state in state.reporter.map { ($0, state.navigationID) } }
    }

    /// Whole numbers as JSON integers, so `240` in a file matches a height of `240.0`.
    static func number(_ value: Double) -> JSONValue {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return .int(Int(value)) }
        return .double(value)
    }
}
