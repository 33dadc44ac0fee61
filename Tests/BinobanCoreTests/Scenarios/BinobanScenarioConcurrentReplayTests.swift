import BinobanCoreTesting
import Foundation
import TestSupport
import Testing

/// Many instances in one busy process: every scenario file replayed at once, several rounds. Before
/// `Docs/Decisions/0208-binoban-pause-resume-between-drains.md` a pause and resume that met in one drain were
/// lost, so a scenario waiting for the resume's upload never went on.
@Suite("Binoban scenario files replayed concurrently")
struct BinobanScenarioConcurrentReplayTests {
    @Test("Every scenario passes while all of them run at once, ten rounds")
    func allScenariosAtOnce() async throws {
        var scenarios: [BinobanScenario] = []
        for file in ScenarioFiles.binoban.names {
            let data = try Data(contentsOf: ScenarioFiles.binoban.url(of: file))
            scenarios.append(try BinobanScenarioDecoder.decode(data))
        }
        #expect(scenarios.count >= 20)
        for _ in 0..<10 {
            let failures = await withTaskGroup(of: String?.self) { group -> [String] in
                for scenario in scenarios {
                    group.addTask {
                        let result = await BinobanScenarioRunner.run(scenario)
                        return result.passed ? nil : result.report
                    }
                }
                var reports: [String] = []
                for await report in group { if let report { reports.append(report) } }
                return reports
            }
            #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        }
    }
}
