import Dispatch
import Foundation
import Testing

@testable import BinobanCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The crash writer executable (target `BinobanStorageCrashWriter`), built next to the test bundle.
enum CrashWriter {
    /// Its location, or nil when it was not built (for example when only the test target was built).
    static let executable: URL? = {
        var directories: [URL] = []
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        directories.append(Bundle.main.bundleURL)
        return directories.map { $0.appendingPathComponent("BinobanStorageCrashWriter") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// What one run reported before it was killed.
    struct Run {
        /// The last `stored <count>` the writer printed before the kill.
        var reportedEvents: Int
        /// How the process ended.
        var terminationReason: Process.TerminationReason
        /// Everything else it printed (errors).
        var otherOutput: String
        /// The id the process had (it is gone once the run returns).
        var processIdentifier: Int32
    }

    /// Starts the writer on `directory`, reads its reports and kills it with SIGKILL as soon as it has reported at
    /// least `threshold` events. Blocking reads run on a Dispatch thread, not on the test's executor.
    static func runAndKill(
        _ executable: URL, directory: URL, namespace: String, threshold: Int, durability: BinobanFileDurability
    ) async throws -> Run {
        try await runAndKill(
            executable,
            arguments: [
                directory.path, namespace, durability == .survivesPowerLoss ? "power-loss" : "process-crash",
            ],
            threshold: threshold)
    }

    /// Starts the writer with `arguments`, reads its `stored <count>` reports and kills it with SIGKILL as soon as
    /// it has reported a count of at least `threshold`. Blocking reads run on a Dispatch thread.
    static func runAndKill(_ executable: URL, arguments: [String], threshold: Int) async throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var reported = 0
                var other = ""
                var pending = Data()
                let reader = output.fileHandleForReading
                reading: while true {
                    let chunk = reader.availableData
                    if chunk.isEmpty { break }  // the writer exited on its own
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        pending.removeSubrange(pending.startIndex...newline)
                        if line.hasPrefix("stored "), let count = Int(line.dropFirst("stored ".count)) {
                            reported = count
                            if reported >= threshold {
                                kill(process.processIdentifier, SIGKILL)
                                break reading
                            }
                        } else {
                            other += line + "\n"
                        }
                    }
                }
                process.waitUntilExit()
                continuation.resume(
                    returning: Run(
                        reportedEvents: reported, terminationReason: process.terminationReason, otherOutput: other,
                        processIdentifier: process.processIdentifier))
            }
        }
    }
}

@Suite("File event storage: a real process killed with SIGKILL mid-write")
struct BinobanFileEventStorageCrashTests {
    @Test(
        "Every event a killed writer reported survives the next open, in order, in valid bodies (both durabilities)",
        .enabled(if: CrashWriter.executable != nil, "the BinobanStorageCrashWriter executable was not built"),
        arguments: [300, 1_500, 4_000], BinobanFileDurability.allCases)
    func killedWriter(threshold: Int, durability: BinobanFileDurability) async throws {
        let executable = try #require(CrashWriter.executable)
        try await withTemporaryDirectory { directory in
            let run = try await CrashWriter.runAndKill(
                executable, directory: directory, namespace: "crash", threshold: threshold, durability: durability)
            #expect(run.otherOutput.isEmpty)
            #expect(run.terminationReason == .uncaughtSignal)
            #expect(run.reportedEvents >= threshold)

            let limits = BinobanStorageLimits(
                maxEventBytes: 1_000, maxBatchBytes: 4_000, envelopeOverheadBytes: 100,
                maxFinishedBatches: 1_000_000, maxTotalBytes: Int.max)
            let storage = try BinobanFileEventStorage(directory: directory, limits: limits, namespace: "crash")
            #expect(storage.recoveryIssues.isEmpty)
            #expect(storage.recoveryReport.recoveredBatches > 0)
            try await storage.closeOpenBatch()
            let indices = try await TestEvents.storedIndices(storage)  // decodes every body
            // Nothing reported is lost; events written after the last report may be there too; no gap, no
            // duplicate, no reordering.
            #expect(indices.count >= run.reportedEvents)
            #expect(indices == Array(0..<indices.count))
            #expect(
                try StorageFiles.names(directory).allSatisfy {
                    $0.hasSuffix(".batch") || $0 == StorageFiles.lock("crash")
                })
        }
    }
}
