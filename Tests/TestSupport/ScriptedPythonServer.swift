import Foundation

/// `Tests/Fixtures/CurlTransport/scripted_server.py`, run as a child process on 127.0.0.1: an HTTP/1.1 server
/// (plain, or TLS with a given certificate) whose answer each request's path chooses. The script's docstring lists
/// the paths. It ends when this object is released (its standard input closes).
public final class ScriptedPythonServer {
    /// Why the server or the certificates could not be set up.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// The main listener's port.
    public let port: UInt16
    /// A second listener (another origin) with the same answers; the target of `/redirect`.
    public let otherPort: UInt16
    /// A listener that never accepts: connections complete in its backlog and hear nothing.
    public let silentPort: UInt16
    /// `https` with a certificate, else `http`.
    public let scheme: String
    private let process = Process()
    private let input = Pipe()

    /// Starts the script; with `certificate` and `key` (PEM files) it speaks TLS.
    public init(certificate: String? = nil, key: String? = nil) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/CurlTransport/scripted_server.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", script.path]
        if let certificate, let key { arguments += ["--cert", certificate, "--key", key] }
        process.arguments = arguments
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The first line: "PORTS <main> <other> <silent>".
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw Failure(description: "the server ended before naming its ports") }
            line += chunk
        }
        let fields = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard fields.count == 4, fields[0] == "PORTS", let main = UInt16(fields[1]), let other = UInt16(fields[2]),
            let silent = UInt16(fields[3])
        else { throw Failure(description: "unexpected first line: \(String(decoding: line, as: UTF8.self))") }
        port = main
        otherPort = other
        silentPort = silent
        scheme = certificate == nil ? "http" : "https"
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

    /// The main listener's URL for `path`, by IP address.
    public func url(_ path: String) -> URL { URL(string: "\(scheme)://127.0.0.1:\(port)\(path)")! }
}

/// A throwaway certificate authority and a server certificate it signed for 127.0.0.1 only, made with the
/// `openssl` command line once per test process; and a second, unrelated authority for "wrong CA" cases.
public struct TestCertificates: Sendable {
    /// The throwaway CA (PEM) that signed ``serverCertificate``.
    public let authority: String
    /// An unrelated CA (PEM): trusting it alone must refuse the server.
    public let otherAuthority: String
    /// The server's certificate (PEM), for the address 127.0.0.1 only.
    public let serverCertificate: String
    /// The server certificate's private key (PEM).
    public let serverKey: String

    /// The process's certificates, made at first use.
    public static let shared: Result<TestCertificates, ScriptedPythonServer.Failure> = make()

    private static func make() -> Result<TestCertificates, ScriptedPythonServer.Failure> {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sdkcore-test-ca-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = { (name: String) in directory.appendingPathComponent(name).path }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try "subjectAltName=IP:127.0.0.1\n".write(
                toFile: path("san.ext"), atomically: true, encoding: .utf8)
            let commands: [[String]] = [
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=SDK Core test CA",
                    "-keyout", path("ca.key"), "-out", path("ca.pem"),
                ],
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=SDK Core other CA",
                    "-keyout", path("other.key"), "-out", path("other.pem"),
                ],
                [
                    "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", path("server.key"),
                    "-out", path("server.csr"),
                ],
                [
                    "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                    "-CAcreateserial", "-days", "2", "-extfile", path("san.ext"), "-out", path("server.pem"),
                ],
            ]
            for arguments in commands {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["openssl"] + arguments
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                process.waitUntilExit()
                guard process.terminationStatus == 0 else {
                    return .failure(.init(description: "openssl \(arguments[0]) failed"))
                }
            }
            return .success(
                TestCertificates(
                    authority: path("ca.pem"), otherAuthority: path("other.pem"),
                    serverCertificate: path("server.pem"), serverKey: path("server.key")))
        } catch {
            return .failure(.init(description: "could not make test certificates: \(error)"))
        }
    }
}

/// Owned by one test: its process and pipes are not shared across tasks.
@available(*, unavailable)
extension ScriptedPythonServer: Sendable {}
