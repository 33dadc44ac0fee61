import Foundation
import LoopbackHTTP
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("sdkcore binoban send: the files it writes in --storage")
struct SendCheckpointFileTests {
    @Test func aLinkPlantedAtTheProgressTemporaryIsNotFollowedAndTheProgressFileIs0600() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let outside = try TemporaryDirectory()
        defer { outside.remove() }
        let target = outside.url.appendingPathComponent("victim")
        try Data("precious".utf8).write(to: target)
        #expect(chmod(target.path, 0o644) == 0)
        let temporary = directory.url.appendingPathComponent("S.send-progress.json.tmp")
        try FileManager.default.createSymbolicLink(at: temporary, withDestinationURL: target)

        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let input = (1...3).map { #"{"type": "track", "name": "e\#($0)"}"# }.joined(separator: "\n") + "\n"
        let output = try await SDKCoreProcess.run(
            [
                "binoban", "send", "--storage", directory.url.path, "--api-host", "http://127.0.0.1:\(port)",
                "--api-key", "K", "--source", "S", "-",
            ],
            input: input)
        #expect(output.status == 0, "\(output.standardError)")

        #expect(try Data(contentsOf: target) == Data("precious".utf8))
        #expect(try Self.mode(target) == 0o644)
        let progress = directory.url.appendingPathComponent("S.send-progress.json")
        var info = stat()
        #expect(lstat(progress.path, &info) == 0)
        #expect((info.st_mode & S_IFMT) == S_IFREG)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(lstat(temporary.path, &info) != 0)  // the planted link is gone, not written through
        let text = String(decoding: try Data(contentsOf: progress), as: UTF8.self)
        #expect(text.contains(#""linesStored":3"#), "\(text)")
    }

    @Test func aProgressFileThatIsALinkIsNotRead() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let outside = try TemporaryDirectory()
        defer { outside.remove() }
        let target = outside.url.appendingPathComponent("elsewhere.json")
        try Data(#"{"format":1,"linesStored":2,"inputHash":"0"}"#.utf8).write(to: target)
        try FileManager.default.createSymbolicLink(
            at: directory.url.appendingPathComponent("S.send-progress.json"), withDestinationURL: target)
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let output = try await SDKCoreProcess.run(
            [
                "binoban", "send", "--storage", directory.url.path, "--api-host", "http://127.0.0.1:\(port)",
                "--api-key", "K", "--source", "S", "-",
            ],
            input: #"{"type": "track", "name": "e1"}"# + "\n")
        #expect(output.status != 0)
        #expect(output.standardError.contains("not a regular file"), "\(output.standardError)")
        #expect(try Data(contentsOf: target) == Data(#"{"format":1,"linesStored":2,"inputHash":"0"}"#.utf8))
    }

    @Test func aSecondSendOnTheSameStorageIsRefusedWith73WhileTheFirstRuns() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let arguments = [
            "binoban", "send", "--progress", "plain", "--storage", directory.url.path, "--api-host",
            "http://127.0.0.1:\(port)", "--api-key", "K", "--source", "S", "-",
        ]
        // The first run stores one line and then waits for more input, holding the storage.
        let first = try SDKCoreChild(arguments)
        try first.write(Data((#"{"type": "track", "name": "first"}"# + "\n").utf8))
        let seen = try await onBlockingThread { first.waitForStandardError(containing: "stored 1 ", seconds: 30) }
        #expect(seen.contains("stored 1 "), "\(seen)")

        let second = try await SDKCoreProcess.run(arguments, input: #"{"type": "track", "name": "second"}"# + "\n")
        #expect(second.status == 73, "\(second.standardError)")
        #expect(second.standardError.contains(directory.url.path))
        #expect(second.standardError.contains("another instance"), "\(second.standardError)")

        first.closeInput()
        let exited = try await onBlockingThread { first.waitForExit(seconds: 30) }
        #expect(exited)
        let status = first.status
        #expect(status == 0)
        let names = try server.requests.flatMap { request -> [String] in
            let envelope = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
            return try #require(envelope["batch"] as? [[String: Any]]).compactMap { $0["event"] as? String }
        }
        #expect(names == ["first"])
    }

    private static func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return ((attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1) & 0o777
    }
}
