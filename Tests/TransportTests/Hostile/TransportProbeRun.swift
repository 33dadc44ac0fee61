import Foundation
import TestSupport

/// One run of the `TransportProbe` helper process: the lines it printed and how it ended.
struct TransportProbeRun: Sendable {
    /// The helper, built next to the test bundle, or `nil` when it was not built.
    static let executable = LineProcess.builtExecutable(named: "TransportProbe")

    /// One `answer <status>` or `error <reason>` line per request.
    var outcomes: [Outcome]
    /// The CPU the process spent during the last request, in microseconds.
    var cpuMicroseconds: Int?
    /// How far the process's peak resident size grew during the last request, in KiB.
    var peakGrowthKilobytes: Int?
    /// The exit status, or the signal that ended the process.
    var status: Int32
    /// Whether a signal ended the process (a trap).
    var trapped: Bool

    /// Runs the helper: `transport` sends to `urls` one after another through one transport of `kind` (`events`
    /// or `beacons`), each request limited to `timeout`.
    static func run(
        _ transport: String, _ kind: String = "events", timeout: Duration, caFile: URL? = nil, urls: [URL]
    ) async throws -> TransportProbeRun {
        guard let executable else { throw HostilePeerFailure("TransportProbe was not built") }
        let milliseconds = timeout.components.seconds * 1_000 + timeout.components.attoseconds / 1_000_000_000_000_000
        var arguments = [transport, kind, String(milliseconds)]
        if let caFile { arguments += ["--ca", caFile.path] }
        arguments += urls.map(\.absoluteString)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        // No backtracer for the traps this helper exists to show: the Swift runtime's `swift-backtrace` inherits
        // the output pipe, and in a sanitizer build it did not exit, so the pipe never reached its end.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        try process.run()
        // The output is small; read it to its end on a Dispatch thread, then wait for the exit there too.
        let (data, status, reason) = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (data, process.terminationStatus, process.terminationReason))
            }
        }
        var run = TransportProbeRun(
            outcomes: [], cpuMicroseconds: nil, peakGrowthKilobytes: nil, status: status,
            trapped: reason == .uncaughtSignal)
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ")
            switch words.first {
            case "answer": run.outcomes.append(.answer(Int(words.dropFirst().first ?? "") ?? -1))
            case "error": run.outcomes.append(.failure(String(words.dropFirst().first ?? "")))
            case "cost":
                for word in words.dropFirst() {
                    let pair = word.split(separator: "=")
                    guard pair.count == 2, let value = Int(pair[1]) else { continue }
                    if pair[0] == "cpu_us" { run.cpuMicroseconds = value }
                    if pair[0] == "peak_growth_kb" { run.peakGrowthKilobytes = value }
                }
            default: break
            }
        }
        return run
    }
}
