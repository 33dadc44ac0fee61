import Foundation
import SDKCoreCommon

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A running `sdkcore` whose standard input stays open for the test to write to, for tests that signal it or
/// check that it exits before its input ends. Its standard output and error are collected on Dispatch threads
/// while it runs, so it never blocks on a full pipe.
final class SDKCoreChild: Sendable {
    private let process: Process
    private let standardInput: FileHandle
    private let collected = DispatchGroup()
    private let standardErrorData: CollectedBytes
    private let standardOutputData: CollectedBytes

    /// Starts `sdkcore arguments…` with this process's environment minus `BINOBAN_API_KEY`, plus `environment`.
    ///
    /// SIGPIPE is ignored in the test process from then on, so a child that exits before reading what a test
    /// writes makes ``write(_:)`` throw instead of killing the test run.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = SDKCoreProcess.executable
        process.arguments = arguments
        var childEnvironment = ProcessInfo.processInfo.environment
        childEnvironment["BINOBAN_API_KEY"] = nil
        childEnvironment.merge(environment) { _, new in new }
        process.environment = childEnvironment
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        self.process = process
        standardInput = input.fileHandleForWriting
        standardOutputData = CollectedBytes(output.fileHandleForReading, group: collected)
        standardErrorData = CollectedBytes(error.fileHandleForReading, group: collected)
    }

    /// Writes `bytes` to the child's standard input (blocking until the pipe took them).
    func write(_ bytes: Data) throws {
        try standardInput.write(contentsOf: bytes)
    }

    /// Closes the child's standard input.
    func closeInput() {
        try? standardInput.close()
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits at most `seconds` for the child to exit; `false` when it is still running.
    func waitForExit(seconds: Double) -> Bool {
        let exited = DispatchSemaphore(value: 0)
        let process = self.process
        DispatchQueue.global().async {
            process.waitUntilExit()
            exited.signal()
        }
        return exited.wait(timeout: .now() + seconds) == .success
    }

    /// Kills a child that outlived a test's bound, and waits for it.
    func killAndWait() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The exit status, once it exited.
    var status: Int32 { process.terminationStatus }

    /// Everything the child wrote to standard error (waits for the pipe to close, that is for the child to exit).
    var standardError: String {
        collected.wait()
        return standardErrorData.text
    }

    /// Everything the child wrote to standard output (waits for the child to exit).
    var standardOutput: String {
        collected.wait()
        return standardOutputData.text
    }

    /// Reads standard error until `text` appears or the pipe closes; returns what was read by then.
    func waitForStandardError(containing text: String, seconds: Double) -> String {
        waitForStandardError(seconds: seconds) { $0.contains(text) }
    }

    /// Reads standard error until what was read satisfies `isEnough` or the pipe closes; returns what was read.
    func waitForStandardError(seconds: Double, until isEnough: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let seen = standardErrorData.text
            if isEnough(seen) || standardErrorData.isClosed { return seen }
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + 0.02)
        }
        return standardErrorData.text
    }
}

/// Bytes read from a pipe on a Dispatch thread until it closes.
private final class CollectedBytes: Sendable {
    private struct State {
        var bytes = Data()
        var closed = false
    }

    private let state = LockedValue(State())

    init(_ handle: FileHandle, group: DispatchGroup) {
        group.enter()
        DispatchQueue.global().async { [state] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                state.withLock { $0.bytes.append(chunk) }
            }
            state.withLock { $0.closed = true }
            group.leave()
        }
    }

    var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }
    var isClosed: Bool { state.withLock { $0.closed } }
}
