import BinobanCoreTesting
import Foundation
import Testing

/// The Binoban scenario files under `Tests/Scenarios/Binoban`, found relative to this source file.
enum BinobanScenarioFiles {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Scenarios
        .deletingLastPathComponent()  // BinobanCoreTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Scenarios/Binoban")

    static var names: [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return entries.filter { $0.hasSuffix(".json") }.sorted()
    }
}

/// Every scenario file replayed in this process, next to the other suites (one case per file). The replay in a
/// subprocess (`sdkcore scenario run`, SDKCoreCLITests) stays as a check of the command-line tool.
@Suite("Binoban scenario files", .serialized)
struct BinobanScenarioFileTests {
    @Test func theSuiteHasAtLeast20Scenarios() {
        #expect(BinobanScenarioFiles.names.count >= 20, "found \(BinobanScenarioFiles.names)")
    }

    @Test(arguments: BinobanScenarioFiles.names)
    func scenarioPasses(_ file: String) async throws {
        let data = try Data(contentsOf: BinobanScenarioFiles.directory.appendingPathComponent(file))
        let scenario = try BinobanScenarioDecoder.decode(data)
        #expect(scenario.name + ".json" == file, "the name field should match the file name")
        let result = await BinobanScenarioRunner.run(scenario)
        #expect(result.passed, "\(result.report)")
    }
}
