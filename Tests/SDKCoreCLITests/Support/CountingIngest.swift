import Foundation

/// An ingest in a Python process (`http.server`, one thread per connection) on 127.0.0.1 that answers every
/// POST with a fixed status and records, per POST, when it came (Python's monotonic clock, in seconds) and the
/// `messageId` of every event its body held. A test counts the ids to check that each event arrived exactly once,
/// and the times to check a retry schedule. The records go to a file, read when the ingest stops.
final class CountingIngest {
    /// One POST the ingest answered.
    struct Post: Decodable {
        var at: Double
        var ids: [String]
    }

    let port: Int
    private let process: Process
    private let log: URL

    private static let script = """
        import http.server, json, sys, time, os

        status = int(sys.argv[3])

        class Ingest(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                at = time.monotonic()
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                ids = [event.get("messageId", "") for event in json.loads(body).get("batch", [])]
                with open(sys.argv[2], "a") as log:
                    log.write(json.dumps({"at": at, "ids": ids}) + "\\n")
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[4])), Ingest)
        with open(sys.argv[2] + ".port.tmp", "w") as port:
            port.write(str(server.server_address[1]))
        os.rename(sys.argv[2] + ".port.tmp", sys.argv[2] + ".port")
        server.serve_forever()
        """

    /// Starts the ingest answering `status`, on `port` (0: any free port), and waits (at most 30 s) until it
    /// listens.
    init(status: Int = 200, port requested: Int = 0) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("counting-ingest-\(UUID().uuidString)")
        let portFile = URL(fileURLWithPath: log.path + ".port")
        let process = Process()
        process.executableURL = try PlainHTTPIngest.interpreterURL()
        process.arguments = ["-c", Self.script, "127.0.0.1", log.path, String(status), String(requested)]
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(30)
        var port: Int?
        while port == nil, process.isRunning, Date() < deadline {
            if let text = try? String(contentsOf: portFile, encoding: .utf8) { port = Int(text) }
            if port == nil { Thread.sleep(forTimeInterval: 0.02) }
        }
        try? FileManager.default.removeItem(at: portFile)
        guard let port else {
            kill(process.processIdentifier, SIGKILL)
            throw PlainHTTPIngest.StartFailure(reason: process.isRunning ? "no port within 30 s" : "python3 exited")
        }
        self.port = port
    }

    /// Stops the ingest and returns every POST it answered, in order.
    func stop() throws -> [Post] {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(at: log) }
        guard let lines = try? Data(contentsOf: log) else { return [] }
        return try lines.split(separator: UInt8(ascii: "\n")).map {
            try JSONDecoder().decode(Post.self, from: Data($0))
        }
    }
}
