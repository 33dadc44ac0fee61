/// One `sdkcore` subcommand. Each lives in its own file and is listed in ``CommandLineTool/commands``.
protocol Command: Sendable {
    /// The words that select the command, for example `["demo"]` or `["falcon", "resolve"]`.
    var path: [String] { get }
    /// One line for `sdkcore --help`.
    var summary: String { get }
    /// The full text for `sdkcore <command> --help`.
    var help: String { get }
    /// Runs with the arguments after the command words; returns the exit status.
    func run(_ arguments: [String]) async -> Int32
}
