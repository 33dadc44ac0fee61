import FalconCoreTesting
import Foundation
import Testing

/// The Falcon scenario files under `Tests/Scenarios/Falcon`, found relative to this source file.
enum FalconScenarioFiles {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Scenarios
        .deletingLastPathComponent()  // FalconCoreTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Scenarios/Falcon")

    static var names: [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return entries.filter { $0.hasSuffix(".json") }.sorted()
    }
}

@Suite("Falcon scenario files")
struct FalconScenarioFileTests {
    @Test func theSuiteHasAtLeast24Scenarios() {
        #expect(FalconScenarioFiles.names.count >= 24, "found \(FalconScenarioFiles.names)")
    }

    @Test(arguments: FalconScenarioFiles.names)
    func scenarioPasses(_ file: String) async throws {
        let data = try Data(contentsOf: FalconScenarioFiles.directory.appendingPathComponent(file))
        let scenario = try FalconScenarioDecoder.decode(data)
        #expect(scenario.name + ".json" == file, "the name field should match the file name")
        let result = await FalconScenarioRunner.run(scenario)
        #expect(result.passed, "\(result.report)")
    }
}
