import BinobanCoreTesting
import Foundation
import TestSupport
import Testing

/// Every scenario file replayed in this process, next to the other suites (one case per file). The replay in a
/// subprocess (`sdkcore scenario run`, SDKCoreCLITests) stays as a check of the command-line tool.
@Suite("Binoban scenario files", .serialized)
struct BinobanScenarioFileTests {
    @Test func theSuiteHasAtLeast40Scenarios() {
        #expect(ScenarioFiles.binoban.names.count >= 40, "found \(ScenarioFiles.binoban.names)")
    }

    /// Every input and output of the format is exercised by at least one file, so a runner change that breaks
    /// one of them cannot go unnoticed.
    @Test func everyInputAndOutputTypeIsUsed() throws {
        var inputs: Set<String> = []
        var outputs: Set<String> = []
        for file in ScenarioFiles.binoban.names {
            let data = try Data(contentsOf: ScenarioFiles.binoban.url(of: file))
            let document = try JSONDecoder().decode(JSONValue.self, from: data)
            for step in document["steps"]?.arrayValue ?? [] {
                if let type = step["input"]?["type"]?.stringValue { inputs.insert(type) }
            }
            for output in document["expect"]?.arrayValue ?? [] {
                if let type = output["type"]?.stringValue { outputs.insert(type) }
            }
        }
        let allInputs: Set<String> = [
            "track", "identify", "screen", "server.track", "server.identify", "server.page", "server.screen",
            "server.group", "server.alias", "reset", "setDeviceToken", "setFlushAt", "setFlushInterval", "setEnabled",
            "flush", "flushAwait", "awaitFlush", "advance", "initializeNotifications",
            "onNewToken", "onApplicationDidReceiveRemoteNotification", "onWillPresentForwarded",
            "onDidReceiveForwarded", "onNotificationOpened", "attachNotifications", "detachNotifications",
            "setInteractionHandler", "resetInteractionHandler", "drainPendingInteractions",
            "applicationDidFinishLaunching", "applicationWillEnterForeground", "applicationDidEnterBackground",
        ]
        #expect(allInputs.subtracting(inputs).sorted() == [], "inputs no file uses")
        let allOutputs: Set<String> = [
            "request", "error", "flushResult", "interaction", "drained", "display", "permissionRequest", "diagnostic",
        ]
        #expect(allOutputs.subtracting(outputs).sorted() == [], "outputs no file expects")
    }

    @Test(arguments: ScenarioFiles.binoban.names)
    func scenarioPasses(_ file: String) async throws {
        let data = try Data(contentsOf: ScenarioFiles.binoban.url(of: file))
        let scenario = try BinobanScenarioDecoder.decode(data)
        #expect(scenario.name + ".json" == file, "the name field should match the file name")
        let result = await BinobanScenarioRunner.run(scenario)
        #expect(result.passed, "\(result.report)")
    }
}
