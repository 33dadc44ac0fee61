import BinobanCoreTesting

/// The `binoban` entry of `sdkcore scenario run`: decodes with the test kit's decoder and replays.
enum BinobanScenarioEntry {
    @Sendable static func run(_ document: JSONValue) async -> ScenarioOutcome {
        let scenario: BinobanScenario
        do {
            scenario = try BinobanScenarioDecoder.decode(document)
        } catch {
            return ScenarioOutcome(
                name: document["name"]?.stringValue, passed: false, summary: "invalid scenario: \(error)", detail: [],
                report: "invalid scenario: \(error)")
        }
        let result = await BinobanScenarioRunner.run(scenario)
        var detail: [String] = []
        if let mismatch = result.mismatch {
            detail = [
                "expected: \(mismatch.expected?.description ?? "(nothing)")",
                "observed: \(mismatch.observed?.description ?? "(nothing)")",
            ]
        }
        return ScenarioOutcome(
            name: scenario.name, passed: result.passed, summary: result.summary, detail: detail, report: result.report)
    }
}
