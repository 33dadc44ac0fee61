import BinobanCore
import BinobanCoreURLSession
import FalconCore
import FalconCoreURLSession
import Foundation
import Testing

/// Why a request got no answer, in words every transport's error can be mapped onto.
enum FailureKind: String, Sendable, Hashable, CaseIterable {
    /// Nothing listens at the address.
    case refused
    /// The peer reset the connection.
    case reset
    /// The connection closed before a complete answer.
    case closedEarly
    /// TLS could not be set up (an alert, a peer that does not speak TLS).
    case tlsHandshake
    /// The peer's certificate was refused (untrusted, wrong name).
    case certificate
    /// The deadline passed.
    case timeout
    /// The peer's bytes are not a well-formed HTTP answer (or exceed the transport's limits).
    case `protocol`
    /// Anything else.
    case other
}

/// How one request through a transport ended.
enum Outcome: Sendable, Hashable, CustomStringConvertible {
    /// An HTTP answer with this status.
    case answer(Int)
    /// A thrown transport error, with the reason it named (as its transport spells it).
    case failure(String)

    var description: String {
        switch self {
        case .answer(let status): "answer \(status)"
        case .failure(let reason): "error \(reason)"
        }
    }
}

/// Settings a case gives the transport it runs against.
struct SubjectSettings: Sendable {
    /// The wall-clock limit of one request.
    var timeout: Duration
    /// A CA file to trust besides the system's, for transports that take one.
    var caFile: URL?
    /// Told how long each request took, by the event transports, on the thread that ended it (the libcurl engine's,
    /// URLSession's delegate queue or the deadline's timer), before the test's task resumes.
    var ended: @Sendable (Duration) -> Void = { _ in }
}

/// A transport the hostile matrix runs against: how to make it, how to read its errors, and which cases it cannot
/// survive in-process.
struct TransportSubject: Sendable, CustomTestStringConvertible {
    /// The transport's name in test output, and the name the `TransportProbe` helper knows it by.
    var name: String
    /// An event transport with `settings`.
    var makeEvents: @Sendable (SubjectSettings) -> any BinobanEventTransport
    /// A beacon transport with `settings`.
    var makeBeacons: @Sendable (SubjectSettings) -> any FalconBeaconTransport
    /// The reason a thrown error names, or `nil` when the error is not this transport's.
    var reasonOf: @Sendable (any Error) -> String?
    /// The kinds of failure a reason can stand for (URLSession's `connectionLost` is a reset or an early close).
    var kindsOf: @Sendable (String) -> Set<FailureKind>
    /// Whether the transport can be told to trust the peer's CA (`caFile`).
    var trustsCustomCA: Bool
    /// Whether the transport keeps an endless or huge answer's body out of memory (checked in a child process).
    var boundsAnswerMemory: Bool
    /// Whether a request that waits costs (next to) no CPU (checked in a child process).
    var waitsWithoutCPU: Bool
    /// Cases the transport is known to trap on (a `fatalError` below it), which must not run in the test process.
    var trapsOn: @Sendable (HostileCase) -> Bool

    /// Cases (by name) whose outcome is a known defect of the transport, reported to its authors and not run until
    /// it is fixed; each entry says what happens instead.
    var knownIssues: [String: String] = [:]

    /// Whether `hostile` may run in the test process: the transport neither traps on it, nor reads an endless body
    /// without bound, nor spins a core while it waits for the case's deadline (a dozen such requests at once
    /// starve the rest of the suite on a 2-core machine; the transport's own tests cover its timeouts).
    func runsInProcess(_ hostile: HostileCase) -> Bool {
        !trapsOn(hostile) && (boundsAnswerMemory || !hostile.hasEndlessBody)
            && (waitsWithoutCPU || !hostile.expected.contains(.failure(.timeout)))
    }

    var testDescription: String { name }

    /// How `send` ended: its answer, or its error's reason; an error that is not the transport's is a test failure.
    func outcome(_ send: () async throws -> Int) async -> (Outcome, unexpected: (any Error)?) {
        do {
            return (.answer(try await send()), nil)
        } catch {
            guard let reason = reasonOf(error) else { return (.failure("foreign"), error) }
            return (.failure(reason), nil)
        }
    }

    /// Whether `outcome` is one of `expected`.
    func matches(_ outcome: Outcome, _ expected: Set<Expected>) -> Bool {
        switch outcome {
        case .answer(let status): expected.contains(.answer(status))
        case .failure(let reason):
            expected.contains { if case .failure(let kind) = $0 { kindsOf(reason).contains(kind) } else { false } }
        }
    }
}

/// What a case may end with.
enum Expected: Sendable, Hashable, CustomStringConvertible {
    /// An answer with this status.
    case answer(Int)
    /// A failure of this kind.
    case failure(FailureKind)

    var description: String {
        switch self {
        case .answer(let status): "answer \(status)"
        case .failure(let kind): "error \(kind.rawValue)"
        }
    }
}

extension TransportSubject {
    /// The URLSession transports (FoundationNetworking on Linux).
    static let urlSession = TransportSubject(
        name: "urlsession",
        makeEvents: { settings in
            URLSessionEventTransport(
                session: nil, requestTimeout: settings.timeout, resourceTimeout: settings.timeout,
                ended: settings.ended)
        },
        makeBeacons: { settings in URLSessionBeaconTransport(timeout: settings.timeout) },
        reasonOf: { error in
            (error as? URLSessionEventTransportError)?.reason.rawValue
                ?? (error as? URLSessionBeaconTransportError)?.reason.rawValue
        },
        kindsOf: { reason in
            switch reason {
            case "timedOut": [.timeout]
            case "cannotConnect": [.refused]
            case "connectionLost": [.closedEarly, .reset]
            case "secureConnectionFailed": [.tlsHandshake, .certificate]
            case "notHTTP": [.protocol]
            // FoundationNetworking reports several libcurl failures as `URLError.unknown` (-1): a body cut short,
            // a certificate refused, a TLS handshake that failed.
            default: [.protocol, .other, .closedEarly, .certificate, .tlsHandshake]
            }
        },
        // FoundationNetworking on Linux takes its CA bundle from the system store only.
        trustsCustomCA: false,
        // FoundationNetworking on Linux reads and queues an answer's body for the delegate without backpressure,
        // and a stop lands only when its work queue gets to it: measured from 7 MiB to 2.4 GiB (Decision 0313).
        boundsAnswerMemory: false,
        // FoundationNetworking spins in its socket sources while a request on a new connection waits (0307).
        waitsWithoutCPU: false,
        trapsOn: { $0.trapsFoundationNetworking }
    )

    #if os(Linux)
    /// The Linux transports with an engine of their own (libcurl's multi interface, Decision 0308).
    static let curl = TransportSubject(
        name: "curl",
        makeEvents: { settings in
            CurlEventTransport(
                requestTimeout: settings.timeout, resourceTimeout: settings.timeout,
                caBundlePath: settings.caFile?.path, ended: settings.ended)
        },
        makeBeacons: { settings in CurlBeaconTransport(timeout: settings.timeout, caBundlePath: settings.caFile?.path)
        },
        reasonOf: { error in
            (error as? CurlEventTransportError)?.reason.rawValue
                ?? (error as? CurlBeaconTransportError)?.reason.rawValue
        },
        kindsOf: { reason in
            switch reason {
            case "refused": [.refused]
            case "reset": [.reset]
            case "closedEarly": [.closedEarly]
            // `notTLS` is the handshake failure of a peer that answered in plain text.
            case "tlsHandshake", "notTLS": [.tlsHandshake]
            case "certificate": [.certificate]
            case "timeout": [.timeout]
            case "protocolViolation": [.protocol]
            default: [.other]
            }
        },
        trustsCustomCA: true,
        boundsAnswerMemory: true,
        waitsWithoutCPU: true,
        trapsOn: { _ in false }
    )
    #endif

    /// Every transport the matrix runs against on this platform.
    #if os(Linux)
    static let all: [TransportSubject] = [.urlSession, .curl]
    #else
    static let all: [TransportSubject] = [.urlSession]
    #endif
}
