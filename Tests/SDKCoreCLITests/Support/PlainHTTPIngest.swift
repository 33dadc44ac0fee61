import Foundation

/// A plain-HTTP ingest in a Python process (`http.server`), listening on an address the SDK does not count as
/// loopback, so that a test sees what a cleartext host on a private network gets. On Linux every 127.x.y.z
/// address reaches this machine, and only 127.0.0.1 is on the SDK's loopback list; 127.0.0.2 stands for the
/// private host. The ingest answers every POST with 200 and writes one JSON line per POST to a file: the path,
/// whether it carried Basic auth, and how many events its (possibly gzip) body held. A connection that is not
/// HTTP (a TLS handshake) gets no POST line. (A file, not a pipe: a child process another test starts meanwhile
/// can inherit a pipe's write end, and its end of file would then never come.)
///
/// Starting and stopping block the calling thread while Python starts (tens of milliseconds) or exits.
final class PlainHTTPIngest {
    /// One POST the ingest answered.
    struct Post: Decodable, Equatable {
        var path: String
        var basicAuth: Bool
        var events: Int
    }

    /// The address the ingest listens on.
    static let address = "127.0.0.2"

    let port: Int
    private let process: Process
    private let log: URL

    private static let script = """
        import gzip, http.server, json, os, sys

        class Ingest(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                events = len(json.loads(body).get("batch", []))
                auth = (self.headers.get("Authorization") or "").startswith("Basic ")
                with open(sys.argv[2], "a") as log:
                    log.write(json.dumps({"path": self.path, "basicAuth": auth, "events": events}) + "\\n")
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        server = http.server.HTTPServer((sys.argv[1], 0), Ingest)
        with open(sys.argv[2] + ".port.tmp", "w") as port:
            port.write(str(server.server_address[1]))
        os.rename(sys.argv[2] + ".port.tmp", sys.argv[2] + ".port")
        server.serve_forever()
        """

    /// Starts the ingest and waits (at most 30 s) until it listens.
    init() throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("plain-ingest-\(UUID().uuidString).jsonl")
        let portFile = URL(fileURLWithPath: log.path + ".port")
        let process = Process()
        process.executableURL = try Self.interpreterURL()
        process.arguments = ["-c", Self.script, Self.address, log.path]
        try process.run()
        self.process = process
        // The port comes in a file renamed into place once written; polled, since Python takes a moment to start.
        let deadline = Date().addingTimeInterval(30)
        var port: Int?
        while port == nil, process.isRunning, Date() < deadline {
            if let text = try? String(contentsOf: portFile, encoding: .utf8) { port = Int(text) }
            if port == nil { Thread.sleep(forTimeInterval: 0.02) }
        }
        try? FileManager.default.removeItem(at: portFile)
        guard let port else {
            kill(process.processIdentifier, SIGKILL)
            throw StartFailure(reason: process.isRunning ? "no port within 30 s" : "python3 exited")
        }
        self.port = port
    }

    /// The Python interpreter itself: `python3` on the PATH may be a launcher (a pyenv shim) that runs the
    /// interpreter as another process, which `terminate()` would then leave running.
    static func interpreterURL() throws -> URL {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import sys; print(sys.executable)"]
        let output = Pipe()
        probe.standardOutput = output
        try probe.run()
        probe.waitUntilExit()
        let path = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard probe.terminationStatus == 0, !path.isEmpty else { throw StartFailure(reason: "python3 not found") }
        return URL(fileURLWithPath: path)
    }

    /// The ingest did not start.
    struct StartFailure: Error {
        var reason: String
    }

    /// Stops the ingest and returns every POST it answered, in order.
    func stop() throws -> [Post] {
        // SIGKILL: a SIGTERM the test runner ignores is ignored by its children too.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(at: log) }
        guard let lines = try? Data(contentsOf: log) else { return [] }
        return try lines.split(separator: UInt8(ascii: "\n")).map {
            try JSONDecoder().decode(Post.self, from: Data($0))
        }
    }
}
