import Dispatch
import Foundation

/// A child process driven line by line: the test writes commands to its standard input and waits for the lines
/// it prints. Blocking reads and the final wait run on Dispatch threads, never on the cooperative pool.
///
/// ```swift
/// let child = try LineProcess(executable: url, arguments: ["hold", path, "ns", "3"])
/// let line = try await child.nextLine(startingWith: "holding")
/// child.send("stop")
/// let status = await child.waitForExit()
/// ```
package final class LineProcess: Sendable {
    private let process: Process
    private let input: FileHandle
    private let lines: LockedLines

    /// The built executable `name`, next to the test bundle (SwiftPM puts a package's executables there), or
    /// `nil` when it was not built.
    package static func builtExecutable(named name: String) -> URL? {
        var directories: [URL] = []
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        directories.append(Bundle.main.bundleURL)
        return directories.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Starts `executable` with `arguments` and begins collecting its standard output lines.
    package init(executable: URL, arguments: [String]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardInput = standardInput
        try process.run()
        self.process = process
        self.input = standardInput.fileHandleForWriting
        let lines = LockedLines()
        self.lines = lines
        let reader = output.fileHandleForReading
        DispatchQueue.global().async {
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            lines.finish()
        }
    }

    /// Every line printed so far.
    package var output: [String] { lines.all }

    /// The first line printed that starts with `prefix`, waiting up to `timeout` (real time: a child process
    /// cannot follow a manual clock) for it.
    package func nextLine(startingWith prefix: String, timeout: Duration = .seconds(60)) async throws -> String {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let (all, finished) = lines.snapshot
            if let line = all.first(where: { $0.hasPrefix(prefix) }) { return line }
            if finished || ContinuousClock.now >= deadline {
                throw Failure(description: "no line starting with \(prefix); output so far: \(all)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Writes `line` and a newline to the child's standard input.
    package func send(_ line: String) {
        input.write(Data((line + "\n").utf8))
    }

    /// Waits for the child to exit and returns its status.
    package func waitForExit() async -> Int32 {
        try? input.close()
        let process = self.process
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
    }

    /// Why the child did not do what the test waited for.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }
}

/// The lines a ``LineProcess`` printed, behind a lock.
private final class LockedLines: @unchecked Sendable {
    // A small lock wrapper: every access to `lines` and `finished` holds `lock`.
    private let lock = NSLock()
    private var lines: [String] = []
    private var finished = false

    func append(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        lines.append(line)
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        finished = true
    }

    var all: [String] { snapshot.lines }

    var snapshot: (lines: [String], finished: Bool) {
        lock.lock()
        defer { lock.unlock() }
        return (lines, finished)
    }
}
