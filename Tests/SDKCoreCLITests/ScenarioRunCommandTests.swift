import Foundation
import TestSupport
import Testing

@Suite("sdkcore scenario run")
struct ScenarioRunCommandTests {
    /// An inline placement answered with HTTP 404; `hideAt` is when the scenario expects the hide.
    static func scenario(hideAt: Int) -> String {
        """
        {"format": 1, "core": "falcon", "name": "cli-404", "description": "HTTP 404 fails the load.",
         "steps": [
           {"at": 0, "input": {"type": "initSdk", "apiKey": "KEY"}},
           {"at": 0, "input": {"type": "execute", "placement": "inline", "attributes": {"placement_details": {"view": "V"}}}},
           {"at": 120, "input": {"type": "navigationResponse", "status": 404}}
         ],
         "expect": [
           {"type": "callback", "name": "onShouldShowLoadingIndicator", "at": 0},
           {"type": "load", "urlPattern": "https://pr.falconlabs.us/ui/webview?placement=V&*"},
           {"type": "diagnostic", "code": "webviewHTTPError", "placement": "V", "layoutId": null},
           {"type": "beacon", "fields": {"code": "webviewHTTPError", "ts": 1783512000120}},
           {"type": "stop"}, {"type": "teardown"},
           {"type": "callback", "name": "onShouldHideLoadingIndicator", "at": \(hideAt)},
           {"type": "callback", "name": "onError", "error": "placementLoadError"}
         ]}
        """
    }

    @Test func passingFilesExitWithZero() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("cli-404.json", Self.scenario(hideAt: 120))
        let shipped = ScenarioFiles.falcon.url(of: "inline-http-404-fails.json").path
        let output = try await SDKCoreProcess.run(["scenario", "run", file, shipped])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.contains("PASS \(file) (cli-404)"))
        #expect(output.standardOutput.contains("PASS \(shipped) (inline-http-404-fails)"))
        #expect(output.standardOutput.hasSuffix("2 passed, 0 failed\n"))
    }

    @Test func failingFileExitsWithOneAndShowsTheFirstMismatch() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let good = try directory.write("good.json", Self.scenario(hideAt: 120))
        let bad = try directory.write("bad.json", Self.scenario(hideAt: 121))
        let output = try await SDKCoreProcess.run(["scenario", "run", good, bad])
        #expect(output.status == 1)
        let text = output.standardOutput
        #expect(text.contains("PASS \(good) (cli-404)"))
        #expect(text.contains("FAIL \(bad) (cli-404)"))
        #expect(text.contains("first mismatch at output #6: field \"at\": expected 121, observed 120"))
        #expect(text.contains("expected: {\"type\":\"callback\",\"at\":121,\"name\":\"onShouldHideLoadingIndicator\"}"))
        #expect(text.hasSuffix("1 passed, 1 failed\n"))

        let verbose = try await SDKCoreProcess.run(["scenario", "run", "--verbose", bad])
        #expect(verbose.standardOutput.contains("!! #6 expected"))
        #expect(verbose.standardOutput.contains("ok #0 {\"type\":\"callback\""))
        #expect(verbose.standardOutput.contains("ok #1 {\"type\":\"load\""))
    }

    @Test func missingInvalidAndUnknownCoreFilesFail() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.url.appendingPathComponent("missing.json").path
        let broken = try directory.write("broken.json", "{\"format\": 1,\n \"core\": \"falcon\"\n \"name\": 1}")
        let martian = try directory.write(
            "martian.json",
            #"{"format": 1, "core": "martian", "name": "m", "description": "", "steps": [], "expect": []}"#)
        let typo = try directory.write(
            "typo.json", #"{"format": 1, "core": "falcon", "name": "t", "description": "", "stepz": [], "expect": []}"#)
        let output = try await SDKCoreProcess.run(["scenario", "run", missing, broken, martian, typo])
        #expect(output.status == 1)
        let text = output.standardOutput
        #expect(text.contains("FAIL \(missing)\n     cannot read the file: \(missing): no such file"))
        #expect(text.contains("FAIL \(broken)\n     not valid JSON: line 3, column 2: expected ',' or '}'"))
        #expect(text.contains("core: unknown core \"martian\" (this build replays falcon"))
        #expect(text.contains("FAIL \(typo) (t)\n     invalid scenario: steps: is required"))
        #expect(text.hasSuffix("0 passed, 4 failed\n"))
    }

    @Test func usageErrors() async throws {
        let none = try await SDKCoreProcess.run(["scenario", "run"])
        #expect(none.status == 64)
        #expect(none.standardError.contains("give at least one scenario file"))
        let unknown = try await SDKCoreProcess.run(["scenario", "run", "--fast", "x.json"])
        #expect(unknown.status == 64)
        let help = try await SDKCoreProcess.run(["scenario", "run", "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("1   at least one file failed"))
    }
}
