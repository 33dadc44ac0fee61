import Foundation
import Testing

@Suite("sdkcore: help, version and the shared option rules")
struct CommandLineToolTests {
    @Test("'sdkcore <group> --help' and 'sdkcore help <group>' list the group's commands")
    func groupHelp() async throws {
        for arguments in [["binoban", "--help"], ["binoban", "-h"], ["help", "binoban"]] {
            let output = try await SDKCoreProcess.run(arguments)
            #expect(output.status == 0, "\(arguments)")
            #expect(output.standardOutput.contains("USAGE: sdkcore binoban <command>"), "\(arguments)")
            #expect(output.standardOutput.contains("binoban send"), "\(arguments)")
            #expect(!output.standardOutput.contains("falcon resolve"), "\(arguments)")
        }
        // A bare group is a usage error that still shows what the group holds.
        let bare = try await SDKCoreProcess.run(["falcon"])
        #expect(bare.status == 64)
        #expect(bare.standardError.contains("falcon resolve"))
    }

    @Test("'sdkcore help <command>' prints the same text as '<command> --help'")
    func commandHelp() async throws {
        for path in [["binoban", "send"], ["falcon", "resolve"], ["scenario", "run"], ["demo"]] {
            let viaHelp = try await SDKCoreProcess.run(["help"] + path)
            let viaFlag = try await SDKCoreProcess.run(path + ["--help"])
            #expect(viaHelp.status == 0, "\(path)")
            #expect(!viaHelp.standardOutput.isEmpty)
            #expect(viaHelp.standardOutput == viaFlag.standardOutput, "\(path)")
        }
        let unknown = try await SDKCoreProcess.run(["help", "binoban", "receive"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("no command 'binoban receive'"))
    }

    @Test("'sdkcore --version' prints the package version and the ported Falcon iOS SDK version")
    func version() async throws {
        let output = try await SDKCoreProcess.run(["--version"])
        #expect(output.status == 0)
        #expect(output.standardOutput.hasPrefix("sdkcore 0."))
        #expect(output.standardOutput.contains("Falcon iOS SDK 1.3.1"))
        #expect(try await SDKCoreProcess.run(["--help"]).standardOutput.contains("sdkcore --version"))
    }

    @Test("An option given twice is a usage error in every command, with '=' or a separate value")
    func repeatedOptions() async throws {
        let cases: [[String]] = [
            ["binoban", "send", "--api-key", "A", "--api-key=B", "--source", "S", "--dry-run", "-"],
            ["binoban", "send", "--dry-run", "--dry-run", "--api-key", "A", "--source", "S", "-"],
            ["falcon", "resolve", "--api-key", "A", "--api-key", "B", "--attributes-json", "{}"],
            ["falcon", "resolve", "--base-url", "https://a.example", "--base-url=https://b.example"],
            ["scenario", "run", "--verbose", "--verbose", "x.json"],
        ]
        for arguments in cases {
            let output = try await SDKCoreProcess.run(arguments, input: "")
            #expect(output.status == 64, "\(arguments): \(output.standardError)")
            #expect(output.standardError.contains("is given more than once"), "\(arguments)")
        }
        // After `--` everything is a positional argument, so a repeated word there is not an option.
        let files = try await SDKCoreProcess.run(["scenario", "run", "--", "--verbose", "--verbose"])
        #expect(!files.standardError.contains("is given more than once"))
    }
}
