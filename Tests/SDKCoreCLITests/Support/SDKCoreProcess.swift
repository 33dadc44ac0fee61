import Foundation
import Testing

/// Runs the built `sdkcore` executable, which SwiftPM places next to the test bundle.
enum SDKCoreProcess {
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The directory holding the test bundle (and the package's executables).
    static var productsDirectory: URL {
        #if os(macOS)
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return executable.deletingLastPathComponent()
    }

    static var executable: URL { productsDirectory.appendingPathComponent("sdkcore") }

    /// Runs `sdkcore arguments…`, feeding `input` on standard input, and waits for it to exit. The blocking
    /// reads and the wait run on a Dispatch thread: a test blocking one of the cooperative pool's few threads for
    /// a child's lifetime would stall every other test of the run.
    ///
    /// The child gets this process's environment without `BINOBAN_API_KEY`, plus `environment`.
    static func run(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:]
    ) async throws -> Output {
        try await onBlockingThread { try runBlocking(arguments, input: input, environment: environment) }
    }

    private static func runBlocking(_ arguments: [String], input: String?, environment: [String: String]) throws
        -> Output
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var childEnvironment = ProcessInfo.processInfo.environment
        childEnvironment["BINOBAN_API_KEY"] = nil
        childEnvironment.merge(environment) { _, new in new }
        process.environment = childEnvironment
        let output = Pipe()
        let error = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
        try standardInput.fileHandleForWriting.close()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self)
        )
    }
}

/// Runs blocking work (reading a child's pipes, waiting for it to exit) on a Dispatch thread instead of the
/// cooperative pool.
func onBlockingThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}

/// A fresh temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sdkcore-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
