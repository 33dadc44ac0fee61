import BenchmarkSupport
import BinobanCore
import BinobanCoreTesting
import LoopbackHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A 127.0.0.1 ingest for the delivery benchmarks: it answers each request as its ``IngestPlan`` says, scans
/// every body it acknowledges for its events' `messageId`s (a byte scan, see ``messageIds(in:)``) and counts the
/// distinct ones it holds, and checks that no request arrives inside a `Retry-After` window it gave.
///
/// The tally outlives any one server: ``makeServer(port:)`` creates a server that feeds it, so an outage is a
/// stopped server followed by a new one on the same port.
final class CountingIngest: Sendable {
    /// What the ingest has seen so far.
    struct Tally: Sendable {
        /// Distinct message ids in acknowledged (200) bodies.
        var delivered = Set<String>()
        /// Distinct message ids of events named ``CountingIngest/benchEventName``.
        var deliveredBench = 0
        /// Events acknowledged again after they were already held (at-least-once repeats).
        var duplicates = 0
        /// Requests received, by the answer given.
        var requests = 0
        var answered200 = 0
        var answered500 = 0
        var answered429 = 0
        var resets = 0
        /// Bodies that did not decode as a batch (answered 400).
        var undecodable = 0
        /// Requests that arrived while a `Retry-After` window given earlier was still open.
        var insideRetryAfter = 0
        /// Of those, requests that arrived more than 100 ms after the 429 was written: the client cannot have
        /// sent them before it read the answer.
        var insideRetryAfterClearly = 0
        /// The end of each HTTP-date window given, by header value (for the client's side of the check).
        var dateWindowEnds: [String: ContinuousClock.Instant] = [:]
        /// The end of the latest `Retry-After` window and when it was given.
        var windowEnd: ContinuousClock.Instant?
        var windowGiven: ContinuousClock.Instant?
        /// When the latest bench event arrived.
        var lastDelivery: ContinuousClock.Instant?
        /// CPU seconds the ingest's handler spent answering (scanning bodies, counting ids): charged to the
        /// process, though a remote ingest's work would not be.
        var handlerCPUSeconds = 0.0
        /// Body bytes of acknowledged requests, as they came over the wire.
        var wireBytes = 0
        /// Acknowledged gzip bodies not yet decoded (see ``decodeDeferredBodies()``).
        var deferred: [Data] = []
    }

    /// The name the benchmark producers give their events, so the count ignores anything else the SDK sends.
    static let benchEventName = "purchase"

    let tally = Locked(Tally())
    private let plan: Locked<IngestPlan>
    private let clock = ContinuousClock()
    private let created = ContinuousClock.now
    /// With `BENCH_VERBOSE` set, every request's arrival time (seconds since the ingest was created) and answer
    /// are printed, to see where a run stalls.
    private let tracesRequests = environment("BENCH_VERBOSE") != nil

    init(plan: IngestPlan = IngestPlan()) {
        self.plan = Locked(plan)
    }

    /// Distinct bench events held so far.
    var deliveredBench: Int { tally.withLock { $0.deliveredBench } }

    /// A stopped server on `port` (0: any free port) that answers through this ingest; call `start()`.
    func makeServer(port: UInt16 = 0) -> LoopbackHTTPServer {
        LoopbackHTTPServer(
            responder: .handler { [self] request in answer(request) },
            configuration: .init(port: port, recordsBodies: false))
    }

    private func answer(_ request: LoopbackHTTPRequest) -> LoopbackHTTPResponse {
        let cpuBefore = threadCPUSeconds()
        defer {
            let spent = threadCPUSeconds() - cpuBefore
            tally.withLock { $0.handlerCPUSeconds += spent }
        }
        return respond(to: request)
    }

    private func respond(to request: LoopbackHTTPRequest) -> LoopbackHTTPResponse {
        let now = clock.now
        let decision = tally.withLock { tally -> IngestPlan.Answer in
            tally.requests += 1
            if let end = tally.windowEnd, now < end {
                tally.insideRetryAfter += 1
                if let given = tally.windowGiven, given.duration(to: now) > .milliseconds(100) {
                    tally.insideRetryAfterClearly += 1
                }
            }
            return plan.withLock { $0.next() }
        }
        if tracesRequests { print("  ingest t=\(format(seconds(from: created, to: now))) s: \(decision)") }
        switch decision {
        case .ok:
            if GzipBody.isCompressed(request.body) {
                // Decoded after the sample: a remote ingest's decompression is not the client's cost.
                tally.withLock { tally in
                    tally.answered200 += 1
                    tally.wireBytes += request.body.count
                    tally.deferred.append(request.body)
                    tally.lastDelivery = clock.now
                }
                return .ok
            }
            guard let ids = Self.messageIds(in: request.body) else {
                tally.withLock { $0.undecodable += 1 }
                return .status(400)
            }
            tally.withLock { tally in
                tally.answered200 += 1
                tally.wireBytes += request.body.count
                for (id, isBench) in ids {
                    if tally.delivered.insert(id).inserted {
                        if isBench { tally.deliveredBench += 1 }
                    } else {
                        tally.duplicates += 1
                    }
                }
                tally.lastDelivery = clock.now
            }
            return .ok
        case .serverError:
            tally.withLock { $0.answered500 += 1 }
            return .status(500)
        case .reset:
            tally.withLock { $0.resets += 1 }
            return .closeConnectionWithoutAnswer
        case .tooManyRequests(let form, let seconds):
            let (header, delay) = RetryAfterHeader.make(form: form, seconds: seconds)
            let given = clock.now
            tally.withLock { tally in
                tally.answered429 += 1
                let end = given.advanced(by: delay)
                if tally.windowEnd.map({ $0 < end }) ?? true { tally.windowEnd = end }
                if form == .httpDate { tally.dateWindowEnds[header] = end }
                tally.windowGiven = given
            }
            return .status(429, headers: ["Retry-After": header])
        }
    }

    /// Decodes the gzip bodies kept during the sample into the tally; returns how many there were and the
    /// wire bytes of every acknowledged body.
    func decodeDeferredBodies() -> (bodies: Int, wireBytes: Int) {
        let bodies = tally.withLock { tally in
            defer { tally.deferred = [] }
            return tally.deferred
        }
        for body in bodies {
            guard let json = try? GzipBody.decompress(body), let ids = Self.messageIds(in: json) else {
                tally.withLock { $0.undecodable += 1 }
                continue
            }
            tally.withLock { tally in
                for (id, isBench) in ids {
                    if tally.delivered.insert(id).inserted {
                        if isBench { tally.deliveredBench += 1 }
                    } else {
                        tally.duplicates += 1
                    }
                }
            }
        }
        return (bodies.count, tally.withLock { $0.wireBytes })
    }

    /// The message ids of a batch body and whether each belongs to a bench event; `nil` when it is not a batch.
    ///
    /// A byte scan, not a JSON parse: this ingest shares the machine's two cores with the SDK under test, and a
    /// full decode of every body (about a third of the process's CPU in a 1 000 000-event burst) would be charged
    /// to the SDK, which a remote ingest never is. Body validity is the test suite's job (the chaos test and the
    /// wire-format tests decode every body); here each event is `{"type":"…"` up to the next one, its
    /// `"messageId":"…"` is its id and it is a bench event when it starts with the bench event's type and name.
    static func messageIds(in body: Data) -> [(String, Bool)]? {
        let bytes = [UInt8](body)
        let opening = Array(#"{"batch":["#.utf8)
        guard bytes.starts(with: opening) else { return nil }
        let eventStart = Array(#"{"type":""#.utf8)
        let benchStart = Array(#"{"type":"track","event":"\#(benchEventName)""#.utf8)
        let idKey = Array(#""messageId":""#.utf8)
        var ids: [(String, Bool)] = []
        var index = opening.count
        var isBench = false
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "{"), matches(eventStart, in: bytes, at: index) {
                isBench = matches(benchStart, in: bytes, at: index)
                index += eventStart.count
            } else if bytes[index] == UInt8(ascii: "\""), matches(idKey, in: bytes, at: index) {
                let start = index + idKey.count
                guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
                ids.append((String(decoding: bytes[start..<end], as: UTF8.self), isBench))
                index = end + 1
            } else {
                index += 1
            }
        }
        return ids.isEmpty ? nil : ids
    }

    private static func matches(_ pattern: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
        guard index + pattern.count <= bytes.count else { return false }
        for offset in 0..<pattern.count where bytes[index + offset] != pattern[offset] { return false }
        return true
    }
}
