import Foundation
import Testing

/// One hostile server behaviour and what a transport must end with against it: an error of the right kind, or the
/// answer where the server did give one. Never a trap, a spin or memory without bound.
struct HostileCase: Sendable, CustomTestStringConvertible {
    /// A short name that says what the server does.
    var name: String
    /// The listener's script.
    var spec: HostileListenerSpec
    /// What the transport may end with.
    var expected: Set<Expected>
    /// Whether the case needs the transport to trust the peer's CA (a TLS case that gets past the handshake).
    var needsTrustedCA = false
    /// Whether FoundationNetworking traps on it (`Fatal error: Transfer completed, but there's no response.`,
    /// swift-corelibs-foundation issue 5285): libcurl takes a close after the status line as a complete answer
    /// that FoundationNetworking never saw the end of.
    var trapsFoundationNetworking = false
    /// Whether the answer's body is endless or huge: a transport that reads it without bound would take the test
    /// process's memory with it, so such a transport meets the case only in a child process.
    var hasEndlessBody = false
    /// Whether the client speaks TLS to a listener that does not (a peer that answers a TLS hello in plain HTTP).
    var clientSpeaksTLS = false

    var testDescription: String { name }

    /// The URL a request of this case goes to on `listener`.
    func url(on listener: HostileListener) -> URL {
        guard clientSpeaksTLS else { return listener.url() }
        return URL(string: "https://127.0.0.1:\(listener.port)/b")!
    }

    /// The answer the scripts cut up: a `202` with an 11-byte body.
    static let statusLine = "HTTP/1.1 202 Accepted\r\n"
    static let head = statusLine + "Content-Length: 11\r\nContent-Type: text/plain\r\n\r\n"
    static let answer = head + "hello world"
    static let chunkedHead = statusLine + "Transfer-Encoding: chunked\r\n\r\n"
    /// The bytes of the answer up to the end of its `Content-Length` line.
    static let lengthKnown = (statusLine + "Content-Length: 11\r\n").utf8.count

    /// The wall-clock limit each request gets: long enough that a loopback answer never misses it on a loaded
    /// machine (5 s did, once in 2 000 requests, beside the whole suite on 2 shared cores).
    static let timeout = Duration.seconds(10)

    // MARK: The matrix

    /// Every case, plain and TLS.
    static let all: [HostileCase] = closes + resets + framing + timing + tls

    /// A close after every byte of the answer: inside the head no answer arrived; inside the body the head is the
    /// answer (a transport may also report the early close); after the last byte it is a whole answer.
    static let closes: [HostileCase] = (0...answer.utf8.count).map { cut in closeCase(at: cut, tls: nil) }

    static func closeCase(at cut: Int, tls: HostileListenerSpec.Certificate?) -> HostileCase {
        let head = Self.head.utf8.count
        // Until libcurl has read the `Content-Length` line it takes a close as the end of a body read to the close,
        // hence as a complete answer that FoundationNetworking never saw the head of.
        let expected: Set<Expected> =
            cut < head
            ? [.failure(.closedEarly), .failure(.protocol)]
            : cut < answer.utf8.count ? [.answer(202), .failure(.closedEarly)] : [.answer(202)]
        return HostileCase(
            name: "\(tls == nil ? "" : "tls ")close after \(cut) of \(answer.utf8.count) bytes",
            spec: HostileListenerSpec(tls: tls, steps: [HostileStep(send: answer, cut: cut, end: .close)]),
            expected: expected, needsTrustedCA: tls != nil,
            trapsFoundationNetworking: tls == nil && cut >= statusLine.utf8.count && cut < lengthKnown)
    }

    /// A reset (RST) at points of the head and body.
    static let resets: [HostileCase] = {
        let head = Self.head.utf8.count
        return [0, 5, statusLine.utf8.count, head - 1].map { (cut: Int) in
            HostileCase(
                name: "reset after \(cut) bytes of the head",
                spec: HostileListenerSpec(steps: [HostileStep(send: answer, cut: cut, end: .reset)]),
                expected: [.failure(.reset)])
        }
            + [head, head + 5].map { (cut: Int) in
                HostileCase(
                    name: "reset after \(cut - head) bytes of the body",
                    spec: HostileListenerSpec(steps: [HostileStep(send: answer, cut: cut, end: .reset)]),
                    expected: [.answer(202), .failure(.reset)])
            }
    }()

    /// Heads and bodies that lie or never end. A transport may take 1 MiB of headers as an answer, refuse it, or
    /// run out of its deadline parsing it (FoundationNetworking, on a loaded machine).
    static let framing: [HostileCase] = [
        HostileCase(
            name: "1 MiB of header lines",
            spec: HostileListenerSpec(steps: [HostileStep(send: answer, padHeaders: 1024 * 1024, end: .close)]),
            expected: [.answer(202), .failure(.protocol), .failure(.timeout)]),
        HostileCase(
            name: "one header line of 1 MiB",
            spec: HostileListenerSpec(steps: [HostileStep(send: answer, longHeader: 1024 * 1024, end: .close)]),
            expected: [.answer(202), .failure(.protocol), .failure(.timeout)]),
        HostileCase(
            name: "an endless chunked body",
            spec: HostileListenerSpec(steps: [HostileStep(send: chunkedHead, endless: .chunked)]),
            expected: [.answer(202)], hasEndlessBody: true),
        HostileCase(
            name: "an endless body read to the close",
            spec: HostileListenerSpec(steps: [HostileStep(send: statusLine + "\r\n", endless: .raw)]),
            expected: [.answer(202)], hasEndlessBody: true),
        HostileCase(
            name: "a 2 000 MiB body",
            spec: HostileListenerSpec(steps: [
                HostileStep(send: statusLine + "Content-Length: 2097152000\r\n\r\n", endless: .raw, repeat: 32_000)
            ]),
            expected: [.answer(202)], hasEndlessBody: true),
        HostileCase(
            name: "a chunk size line that is not hex",
            spec: HostileListenerSpec(steps: [HostileStep(send: chunkedHead + "zz\r\nhello\r\n0\r\n\r\n", end: .close)]
            ),
            expected: [.answer(202), .failure(.protocol)]),
        HostileCase(
            name: "a chunk larger than sent, then a close",
            spec: HostileListenerSpec(steps: [HostileStep(send: chunkedHead + "100\r\nhello", end: .close)]),
            expected: [.answer(202), .failure(.closedEarly)]),
        HostileCase(
            name: "a chunk larger than sent, then silence",
            spec: HostileListenerSpec(steps: [HostileStep(send: chunkedHead + "100\r\nhello", end: .silence)]),
            expected: [.answer(202), .failure(.timeout)]),
        HostileCase(
            name: "a Content-Length larger than the body, then a close",
            spec: HostileListenerSpec(steps: [
                HostileStep(send: statusLine + "Content-Length: 100\r\n\r\nhello", end: .close)
            ]),
            expected: [.answer(202), .failure(.closedEarly)]),
        HostileCase(
            name: "a Content-Length larger than the body, then silence",
            spec: HostileListenerSpec(steps: [
                HostileStep(send: statusLine + "Content-Length: 100\r\n\r\nhello", end: .silence)
            ]),
            expected: [.answer(202), .failure(.timeout)]),
        HostileCase(
            name: "a Content-Length smaller than the body",
            spec: HostileListenerSpec(steps: [HostileStep(send: statusLine + "Content-Length: 2\r\n\r\nhello world")]),
            expected: [.answer(202)]),
        HostileCase(
            name: "two different Content-Length values",
            spec: HostileListenerSpec(steps: [
                HostileStep(send: statusLine + "Content-Length: 5\r\nContent-Length: 7\r\n\r\nhello w", end: .close)
            ]),
            expected: [.answer(202), .failure(.protocol)]),
        HostileCase(
            name: "a status line that is not HTTP",
            spec: HostileListenerSpec(steps: [HostileStep(send: "HELLO THERE\r\n\r\n", end: .close)]),
            expected: [.failure(.protocol)]),
        HostileCase(
            name: "a status code that is not a number",
            spec: HostileListenerSpec(steps: [
                HostileStep(send: "HTTP/1.1 2x2 Accepted\r\nContent-Length: 0\r\n\r\n", end: .close)
            ]),
            expected: [.failure(.protocol)]),
        HostileCase(
            name: "an HTTP/1.0 answer read to the close",
            spec: HostileListenerSpec(steps: [HostileStep(send: "HTTP/1.0 202 Accepted\r\n\r\nhello", end: .close)]),
            expected: [.answer(202)]),
        HostileCase(
            name: "a 100 Continue before the answer",
            spec: HostileListenerSpec(steps: [
                HostileStep(send: "HTTP/1.1 100 Continue\r\n\r\n" + answer)
            ]),
            expected: [.answer(202)]),
    ]

    /// Peers that are slow or silent.
    static let timing: [HostileCase] = [
        HostileCase(
            name: "nothing listens",
            spec: HostileListenerSpec(refused: true),
            expected: [.failure(.refused)]),
        HostileCase(
            name: "the request is read and never answered",
            spec: HostileListenerSpec(steps: [HostileStep(end: .silence)]),
            expected: [.failure(.timeout)]),
        HostileCase(
            name: "an answer after 300 ms",
            spec: HostileListenerSpec(steps: [HostileStep(delayMs: 300, send: answer)]),
            expected: [.answer(202)]),
        HostileCase(
            name: "an answer after the deadline",
            spec: HostileListenerSpec(steps: [HostileStep(delayMs: 15_000, send: answer, end: .close)]),
            expected: [.failure(.timeout)]),
        HostileCase(
            name: "a head that trickles one byte every 150 ms",
            spec: HostileListenerSpec(steps: [HostileStep(send: answer, trickleMs: 150, end: .close)]),
            expected: [.failure(.timeout)]),
    ]

    /// TLS: certificates, alerts, truncation, a peer that does not speak TLS.
    static let tls: [HostileCase] =
        [
            HostileCase(
                name: "tls answer",
                spec: HostileListenerSpec(tls: .good, steps: [HostileStep(send: answer)]),
                expected: [.answer(202)], needsTrustedCA: true),
            HostileCase(
                name: "tls certificate for another name",
                spec: HostileListenerSpec(tls: .wrongName),
                expected: [.failure(.certificate)]),
            HostileCase(
                name: "tls self-signed certificate",
                spec: HostileListenerSpec(tls: .selfSigned),
                expected: [.failure(.certificate)]),
            HostileCase(
                name: "tls handshake alert",
                spec: HostileListenerSpec(steps: [HostileStep(read: .tlsRecord, sendHex: "15030300020228", end: .close)]
                ),
                expected: [.failure(.tlsHandshake)], clientSpeaksTLS: true),
            HostileCase(
                name: "tls hello answered with plain HTTP",
                spec: HostileListenerSpec(steps: [
                    HostileStep(
                        read: .tlsRecord, send: "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", end: .close)
                ]),
                expected: [.failure(.tlsHandshake)], clientSpeaksTLS: true),
            HostileCase(
                name: "tls handshake never starts",
                spec: HostileListenerSpec(tls: .good, handshake: false),
                expected: [.failure(.timeout)]),
            HostileCase(
                name: "tls close_notify in the middle of the head",
                spec: HostileListenerSpec(tls: .good, steps: [HostileStep(send: answer, cut: 30, end: .closeNotify)]),
                expected: [.failure(.closedEarly), .failure(.protocol)], needsTrustedCA: true),
            HostileCase(
                name: "tls reset in the middle of the head",
                spec: HostileListenerSpec(tls: .good, steps: [HostileStep(send: answer, cut: 30, end: .reset)]),
                expected: [.failure(.reset)], needsTrustedCA: true),
            HostileCase(
                name: "tls endless chunked body",
                spec: HostileListenerSpec(tls: .good, steps: [HostileStep(send: chunkedHead, endless: .chunked)]),
                expected: [.answer(202)], needsTrustedCA: true, hasEndlessBody: true),
            HostileCase(
                name: "tls request read and never answered",
                spec: HostileListenerSpec(tls: .good, steps: [HostileStep(end: .silence)]),
                expected: [.failure(.timeout)], needsTrustedCA: true),
        ] + tlsCloses

    /// A close (a FIN, no close_notify) at points of a TLS answer's head and body.
    static let tlsCloses = [0, statusLine.utf8.count, head.utf8.count - 1, head.utf8.count + 3].map {
        closeCase(at: $0, tls: .good)
    }
}
