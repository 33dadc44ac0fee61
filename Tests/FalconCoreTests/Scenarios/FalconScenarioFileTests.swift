import FalconCoreTesting
import Foundation
import TestSupport
import Testing

@Suite("Falcon scenario files")
struct FalconScenarioFileTests {
    @Test func theSuiteHasAtLeast40Scenarios() {
        #expect(ScenarioFiles.falcon.names.count >= 40, "found \(ScenarioFiles.falcon.names)")
    }

    @Test(arguments: ScenarioFiles.falcon.names)
    func scenarioPasses(_ file: String) async throws {
        let data = try Data(contentsOf: ScenarioFiles.falcon.url(of: file))
        let scenario = try FalconScenarioDecoder.decode(data)
        #expect(scenario.name + ".json" == file, "the name field should match the file name")
        let result = await FalconScenarioRunner.run(scenario)
        #expect(result.passed, "\(result.report)")
    }
}
