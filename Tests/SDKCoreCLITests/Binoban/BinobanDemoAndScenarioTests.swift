import Foundation
import TestSupport
import Testing

@Suite("sdkcore demo and Binoban scenarios")
struct BinobanDemoAndScenarioTests {
    @Test func theDemoExitsZeroAndEndsWithTheSummary() async throws {
        let output = try await SDKCoreProcess.run(["demo"])
        #expect(output.status == 0, "\(output.standardOutput)")
        #expect(output.standardOutput.contains("ingest received 1 batch(es), 5 event(s)"))
        let last = output.standardOutput.split(separator: "\n").last.map(String.init)
        #expect(last == "sdkcore demo: 5 of 5 checks matched the expected behaviour")
    }

    @Test func theSuiteHasAtLeast40Scenarios() {
        #expect(ScenarioFiles.binoban.names.count >= 40, "\(ScenarioFiles.binoban.names)")
    }

    @Test(arguments: ScenarioFiles.binoban.names)
    func scenarioPasses(_ file: String) async throws {
        let output = try await SDKCoreProcess.run(
            ["scenario", "run", "--verbose", ScenarioFiles.binoban.url(of: file).path])
        #expect(output.status == 0, "\(output.standardOutput)")
        #expect(output.standardOutput.contains("(\(file.dropLast(5)))"), "the name field should match the file name")
    }

    @Test func aFailingExpectationPrintsTheFieldAndBothSides() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(
            "wrong-user.json",
            #"""
            {"format": 1, "core": "binoban", "name": "wrong-user",
             "steps": [{"at": 0, "input": {"type": "identify", "userId": "u1"}},
                       {"at": 0, "input": {"type": "track", "name": "a"}},
                       {"at": 0, "input": {"type": "flushAwait"}}, {"at": 0, "input": {"type": "awaitFlush"}}],
             "expect": [{"type": "request", "events": [{"type": "identify"}, {"event": "a", "userId": "u2"}]},
                        {"type": "flushResult", "outcome": "completed"}, {"type": "error"}]}
            """#)
        let output = try await SDKCoreProcess.run(["scenario", "run", "--verbose", file])
        #expect(output.status == 1)
        let text = output.standardOutput
        #expect(
            text.contains(#"first mismatch at output #1: field "events[1].userId": expected "u2", observed "u1""#),
            "\(text)")
        #expect(text.contains("ok #2 expected:"))
        #expect(text.contains(#"-  #3 expected: {"type":"error"}"#))
    }

    @Test func aSyntaxErrorNamesLineAndColumn() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("broken.json", "{\n  \"format\": 1,\n  \"core\" \"binoban\"\n}")
        let output = try await SDKCoreProcess.run(["scenario", "run", file])
        #expect(output.status == 1)
        #expect(output.standardOutput.contains("line 3, column 10"), "\(output.standardOutput)")
    }
}
