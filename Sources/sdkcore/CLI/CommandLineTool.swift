/// Parses `sdkcore <command…> [arguments]` and dispatches to the matching ``Command``.
enum CommandLineTool {
    /// Every command, in `--help` order. Later commands (`binoban send`, `falcon resolve`, `scenario run`)
    /// are added here, one file each.
    static let commands: [any Command] = [
        DemoCommand(), BinobanSendCommand(), FalconResolveCommand(), ScenarioRunCommand(),
    ]

    static func run(_ arguments: [String]) async -> Int32 {
        if arguments.isEmpty || arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"] {
            print(usage)
            return arguments.isEmpty ? 64 : 0
        }
        let match =
            commands
            .filter { arguments.starts(with: $0.path) }
            .max { $0.path.count < $1.path.count }
        guard let command = match else {
            printError("sdkcore: unknown command '\(arguments.joined(separator: " "))'\n\n\(usage)")
            return 64
        }
        let rest = Array(arguments.dropFirst(command.path.count))
        if rest.contains("--help") || rest.contains("-h") {
            print(command.help)
            return 0
        }
        return await command.run(rest)
    }

    static var usage: String {
        let width = commands.map { $0.path.joined(separator: " ").count }.max() ?? 0
        let lines = commands.map { command -> String in
            let name = command.path.joined(separator: " ")
            return "  \(name)\(String(repeating: " ", count: width - name.count))  \(command.summary)"
        }
        return """
            USAGE: sdkcore <command> [options]

            COMMANDS:
            \(lines.joined(separator: "\n"))

            Run 'sdkcore <command> --help' for a command's options.
            """
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
