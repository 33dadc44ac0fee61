import Foundation
import SDKCoreCommon
import TestSupport

/// The hostile HTTP peer (`hostile_peer.py`, next to this file): one Python process per test process, serving
/// listeners that each follow a script of their own (close after a given byte, reset, endless bodies, TLS with
/// the wrong certificate, silence, ...), plain or TLS, on 127.0.0.1 with free ports.
///
/// The process is started on first use and ends when the test process does (it exits at the end of its standard
/// input). The certificates it made with `openssl` are in ``certificates``; a client that should trust them takes
/// ``caFile``.
final class HostilePeer: Sendable {
    /// The peer of this test process, started on first use.
    static func shared() async throws -> HostilePeer {
        try await starting.value
    }

    private static let starting = Task { try await HostilePeer() }

    private let process: LineProcess
    private let commands = LockedValue(0)
    /// The directory of the throwaway certificates.
    let certificates: URL

    /// The CA that signed the peer's `good` and `wrong-name` certificates.
    var caFile: URL { certificates.appendingPathComponent("ca.pem") }

    /// The script, next to this source file.
    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("hostile_peer.py")
    }

    private init() async throws {
        process = try LineProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", Self.script.path])
        let ready = try await process.nextLine(startingWith: "ready ")
        certificates = URL(fileURLWithPath: String(ready.dropFirst("ready ".count)))
    }

    /// Opens a listener that follows `spec`.
    func open(_ spec: HostileListenerSpec) async throws -> HostileListener {
        let json = String(decoding: try JSONEncoder().encode(spec), as: UTF8.self)
        let (token, reply) = try await command("open", json)
        guard reply.hasPrefix("opened "), let port = UInt16(reply.dropFirst("opened ".count)) else {
            throw HostilePeerFailure("the peer did not open a listener: \(reply)")
        }
        return HostileListener(peer: self, token: token, port: port, isTLS: spec.tls != nil)
    }

    /// What the listener `token` has counted so far.
    func stats(of token: String) async throws -> HostileListener.Stats {
        let (_, reply) = try await command("stats", token)
        guard reply.hasPrefix("stats ") else { throw HostilePeerFailure(reply) }
        return try JSONDecoder().decode(HostileListener.Stats.self, from: Data(reply.dropFirst("stats ".count).utf8))
    }

    /// Stops the listener `token` from accepting.
    func close(_ token: String) async throws {
        _ = try await command("close", token)
    }

    /// Sends `verb <id> argument` and returns the id and the rest of the peer's reply line.
    private func command(_ verb: String, _ argument: String) async throws -> (id: String, reply: String) {
        let id =
            "c"
            + String(
                commands.withLock { count in
                    count += 1
                    return count
                })
        process.send("\(verb) \(id) \(argument)")
        let line = try await process.nextLine(startingWith: "\(id) ")
        return (id, String(line.dropFirst(id.count + 1)))
    }
}

/// A listener of the ``HostilePeer``.
struct HostileListener: Sendable {
    /// What the listener has counted.
    struct Stats: Decodable, Sendable {
        /// TCP connections accepted.
        var connections: Int
        /// TLS handshakes completed.
        var handshakes: Int
        /// Requests read whole.
        var requests: Int
        /// Bytes written to clients (a TLS listener's are the plaintext bytes).
        var bytesWritten: Int
        /// Connections that ended on the server's side.
        var finished: Int
    }

    let peer: HostilePeer
    let token: String
    /// The port it listens on.
    let port: UInt16
    /// Whether it speaks TLS.
    let isTLS: Bool

    /// Its URL for `path`, `https` when it speaks TLS.
    func url(path: String = "/b") -> URL {
        URL(string: "\(isTLS ? "https" : "http")://127.0.0.1:\(port)\(path)")!
    }

    /// What it has counted so far.
    func stats() async throws -> Stats { try await peer.stats(of: token) }

    /// Stops accepting connections (those open stay).
    func close() async throws { try await peer.close(token) }
}

/// A listener's script (see `hostile_peer.py` for the meaning of every field).
struct HostileListenerSpec: Encodable, Sendable {
    /// Which certificate the listener presents.
    enum Certificate: String, Encodable, Sendable {
        /// Signed by the peer's CA for 127.0.0.1 and localhost.
        case good
        /// Signed by the peer's CA for another name.
        case wrongName = "wrong-name"
        /// Self-signed for 127.0.0.1.
        case selfSigned = "self-signed"
    }

    var tls: Certificate?
    var handshake: Bool?
    var refused: Bool?
    var steps: [HostileStep] = []
    var then: HostileStep?

    init(
        tls: Certificate? = nil, handshake: Bool? = nil, refused: Bool? = nil, steps: [HostileStep] = [],
        then: HostileStep? = nil
    ) {
        self.tls = tls
        self.handshake = handshake
        self.refused = refused
        self.steps = steps
        self.then = then
    }
}

/// What the peer does with one request.
struct HostileStep: Encodable, Sendable {
    /// When the step starts.
    enum Read: String, Encodable, Sendable {
        /// After the whole request (head and `Content-Length` body).
        case request
        /// At once on accepting the connection.
        case nothing
        /// After whatever first arrives.
        case some
        /// After one whole TLS record (the ClientHello).
        case tlsRecord
    }

    /// How the step ends.
    enum End: String, Encodable, Sendable {
        case keep, close, reset, closeNotify, silence
    }

    /// A body that never ends.
    enum Endless: String, Encodable, Sendable {
        case chunked, raw
    }

    var read: Read?
    var delayMs: Int?
    var send: String?
    var sendHex: String?
    var padHeaders: Int?
    var longHeader: Int?
    var cut: Int?
    var trickleMs: Int?
    var endless: Endless?
    var `repeat`: Int?
    var end: End?

    init(
        read: Read? = nil, delayMs: Int? = nil, send: String? = nil, sendHex: String? = nil, padHeaders: Int? = nil,
        longHeader: Int? = nil, cut: Int? = nil, trickleMs: Int? = nil, endless: Endless? = nil, repeat: Int? = nil,
        end: End? = nil
    ) {
        self.read = read
        self.delayMs = delayMs
        self.send = send
        self.sendHex = sendHex
        self.padHeaders = padHeaders
        self.longHeader = longHeader
        self.cut = cut
        self.trickleMs = trickleMs
        self.endless = endless
        self.repeat = `repeat`
        self.end = end
    }

    /// `answer` in full, then `end`.
    static func answer(_ answer: String, end: End = .keep) -> HostileStep {
        HostileStep(send: answer, end: end)
    }
}

/// The hostile peer or the probe did not do what the test asked.
struct HostilePeerFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
