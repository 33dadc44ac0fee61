import FalconCoreTesting

/// The outcome of one scenario file, whatever its core.
struct ScenarioOutcome: Sendable {
    /// The scenario's `name`, when the file got that far.
    var name: String?
    /// Whether it passed.
    var passed: Bool
    /// For a failure: the first mismatch or the reason the file is invalid, in one line.
    var summary: String
    /// For a failure: the detail lines (expected / observed) printed under the summary.
    var detail: [String]
    /// The full report for `--verbose`.
    var report: String
}

/// One core the `scenario run` command can replay: decodes a parsed scenario document and runs it.
struct ScenarioCore: Sendable {
    /// The `core` value this entry handles.
    var name: String
    /// Decodes and runs a document whose `core` is ``name``.
    var run: @Sendable (JSONValue) async -> ScenarioOutcome
}

/// The cores `sdkcore scenario run` dispatches on, by the file's `core` field. A new core adds one entry.
enum ScenarioCores {
    static let all: [ScenarioCore] = [
        ScenarioCore(name: "falcon", run: runFalcon),
        ScenarioCore(name: "binoban", run: BinobanScenarioEntry.run),
    ]

    static func core(named name: String) -> ScenarioCore? {
        all.first { $0.name == name }
    }

    @Sendable static func runFalcon(_ document: JSONValue) async -> ScenarioOutcome {
        let scenario: FalconScenario
        do {
            scenario = try FalconScenarioDecoder.decode(document)
        } catch {
            return ScenarioOutcome(
                name: document["name"]?.stringValue, passed: false, summary: "invalid scenario: \(error)", detail: [],
                report: "invalid scenario: \(error)")
        }
        let result = await FalconScenarioRunner.run(scenario)
        var detail: [String] = []
        if result.problems.isEmpty, let mismatch = result.mismatch {
            detail = [
                "expected: \(mismatch.expected?.description ?? "(nothing)")",
                "observed: \(mismatch.observed?.description ?? "(nothing)")",
            ]
        }
        return ScenarioOutcome(
            name: scenario.name, passed: result.passed, summary: result.summary, detail: detail, report: result.report)
    }
}
