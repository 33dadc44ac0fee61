import BinobanCore
import FalconCore

/// Parses `sdkcore <command…> [arguments]` and dispatches to the matching ``Command``.
enum CommandLineTool {
    /// Every command, in `--help` order. Later commands (`binoban send`, `falcon resolve`, `scenario run`)
    /// are added here, one file each.
    static let commands: [any Command] = [
        DemoCommand(), BinobanSendCommand(), BinobanBacklogCommand(mode: .list), BinobanBacklogCommand(mode: .export),
        FalconResolveCommand(), ScenarioRunCommand(),
    ]

    static func run(_ arguments: [String]) async -> Int32 {
        if arguments.isEmpty || arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"] {
            print(usage)
            return arguments.isEmpty ? 64 : 0
        }
        if arguments == ["--version"] {
            print(versionLine)
            return 0
        }
        if arguments.first == "help" { return help(for: Array(arguments.dropFirst())) }
        let match =
            commands
            .filter { arguments.starts(with: $0.path) }
            .max { $0.path.count < $1.path.count }
        guard let command = match else {
            // `sdkcore binoban` or `sdkcore binoban --help`: the group's commands.
            if let group = arguments.first, let listing = groupUsage(group),
                arguments.count == 1
                    || (arguments.count == 2 && ["--help", "-h"].contains(arguments[1]))
            {
                if arguments.count == 1 {
                    printError(listing)
                    return 64
                }
                print(listing)
                return 0
            }
            printError("sdkcore: unknown command '\(arguments.joined(separator: " "))'\n\n\(usage)")
            return 64
        }
        let rest = Array(arguments.dropFirst(command.path.count))
        let options = rest.prefix { $0 != "--" }
        if options.contains("--help") || options.contains("-h") {
            print(command.help)
            return 0
        }
        if let repeated = OptionRepetition.firstRepeated(in: Array(options)) {
            let name = command.path.joined(separator: " ")
            printError(
                "sdkcore \(name): \(repeated) is given more than once; give each option once\n"
                    + "Run 'sdkcore \(name) --help' for usage.")
            return 64
        }
        return await command.run(rest)
    }

    /// `sdkcore help <command…>`: the help of a command, or the list of a group's commands.
    static func help(for topic: [String]) -> Int32 {
        if topic.isEmpty {
            print(usage)
            return 0
        }
        if let command = commands.first(where: { $0.path == topic }) {
            print(command.help)
            return 0
        }
        if topic.count == 1, let listing = groupUsage(topic[0]) {
            print(listing)
            return 0
        }
        printError("sdkcore help: no command '\(topic.joined(separator: " "))'\n\n\(usage)")
        return 64
    }

    /// `sdkcore --version`: the package version, and the iOS SDK version FalconCore ports.
    static var versionLine: String {
        "sdkcore \(SDKCoreVersion.current) (BinobanCore \(Binoban.version); FalconCore ports Falcon iOS SDK \(Falcon.version))"
    }

    /// The commands whose first word is `group` (`binoban`, `falcon`, `scenario`), or `nil` when none is.
    static func groupUsage(_ group: String) -> String? {
        let members = commands.filter { $0.path.count > 1 && $0.path[0] == group }
        guard !members.isEmpty else { return nil }
        return """
            USAGE: sdkcore \(group) <command> [options]

            COMMANDS:
            \(listing(members))

            Run 'sdkcore help \(group) <command>' or 'sdkcore \(group) <command> --help' for a command's options.
            """
    }

    static var usage: String {
        """
        USAGE: sdkcore <command> [options]

        COMMANDS:
        \(listing(commands))

        Run 'sdkcore help <command>' or 'sdkcore <command> --help' for a command's options, and
        'sdkcore --version' for the version.
        """
    }

    private static func listing(_ shown: [any Command]) -> String {
        let width = shown.map { $0.path.joined(separator: " ").count }.max() ?? 0
        return shown.map { command -> String in
            let name = command.path.joined(separator: " ")
            return "  \(name)\(String(repeating: " ", count: width - name.count))  \(command.summary)"
        }.joined(separator: "\n")
    }

    static func printError(_ text: String) {
        var standardError = StandardError()
        print(text, to: &standardError)
    }
}

/// Standard error as a `TextOutputStream`.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        let bytes = Array(string.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            _ = writeToStandardError(buffer.baseAddress, buffer.count)
        }
    }
}
