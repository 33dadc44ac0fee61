import FalconCoreTesting

/// `sdkcore scenario run FILE...`: replays conformance scenario files and reports pass or fail per file.
struct ScenarioRunCommand: Command {
    /// Exit statuses.
    enum Status {
        static let allPassed: Int32 = 0
        static let someFailed: Int32 = 1
        static let usage: Int32 = 64
    }

    let path = ["scenario", "run"]
    let summary = "Replay conformance scenario files (Docs/Scenarios.md) and report pass/fail"
    var help: String {
        """
        USAGE: sdkcore scenario run [--verbose] FILE...

        Loads each scenario file, dispatches on its "core" field (\(ScenarioCores.all.map(\.name).joined(separator: ", "))),
        replays it on a virtual clock and compares the outputs with its "expect" list. Prints PASS or FAIL per
        file (with the first mismatch, or why the file is invalid or unreadable), then "N passed, M failed".
        The format is described in Docs/Scenarios.md. A FILE of '-' reads one scenario from standard input.

        OPTIONS:
          --verbose   For a failing file, print every output side by side with its expectation.
          -h, --help  Show this help.

        EXIT STATUS:
          0   every file passed
          1   at least one file failed, is invalid (bad JSON, unknown core, bad field) or cannot be read
          64  usage error (no files, unknown option)

        EXAMPLE:
          sdkcore scenario run Tests/Scenarios/Falcon/*.json
        """
    }

    func run(_ arguments: [String]) async -> Int32 {
        var verbose = false
        var files: [String] = []
        var optionsEnded = false
        for argument in arguments {
            if !optionsEnded, argument == "--" {
                optionsEnded = true
            } else if !optionsEnded, argument == "--verbose" || argument == "-v" {
                verbose = true
            } else if !optionsEnded, argument.hasPrefix("-"), argument != "-" {
                CommandLineTool.printError(
                    "sdkcore scenario run: unknown option '\(argument)'\nRun 'sdkcore scenario run --help' for usage.")
                return Status.usage
            } else {
                files.append(argument)
            }
        }
        guard !files.isEmpty else {
            CommandLineTool.printError(
                "sdkcore scenario run: give at least one scenario file\nRun 'sdkcore scenario run --help' for usage.")
            return Status.usage
        }
        var passed = 0
        var failed = 0
        for file in files {
            let outcome = await Self.outcome(of: file)
            let name = outcome.name.map { " (\($0))" } ?? ""
            if outcome.passed {
                passed += 1
                print("PASS \(file)\(name)")
            } else {
                failed += 1
                print("FAIL \(file)\(name)")
                print("     \(outcome.summary)")
                for line in outcome.detail { print("       \(line)") }
                if verbose, !outcome.report.isEmpty {
                    for line in outcome.report.split(separator: "\n", omittingEmptySubsequences: false) {
                        print("     \(line)")
                    }
                }
            }
        }
        print("\(passed) passed, \(failed) failed")
        return failed == 0 ? Status.allPassed : Status.someFailed
    }

    /// Reads, parses and dispatches one file.
    static func outcome(of file: String) async -> ScenarioOutcome {
        func invalid(_ message: String) -> ScenarioOutcome {
            ScenarioOutcome(name: nil, passed: false, summary: message, detail: [], report: "")
        }
        let document: JSONValue
        do {
            document = try JSONParsing.parse(try CommandInput.contents(of: file))
        } catch let error as CommandInput.Failure {
            return invalid("cannot read the file: \(error.message)")
        } catch {
            return invalid("not valid JSON: \(error)")
        }
        guard document.objectValue != nil else { return invalid("a scenario must be a JSON object") }
        guard let core = document["core"]?.stringValue else {
            return invalid("core: is required (one of \(ScenarioCores.all.map(\.name).joined(separator: ", ")))")
        }
        guard let entry = ScenarioCores.core(named: core) else {
            return invalid(
                "core: unknown core \"\(core)\" (this build replays \(ScenarioCores.all.map(\.name).joined(separator: ", ")))"
            )
        }
        return await entry.run(document)
    }
}
