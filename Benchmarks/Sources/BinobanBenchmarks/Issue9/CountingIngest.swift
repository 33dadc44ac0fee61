import BinobanCore
import LoopbackHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A 127.0.0.1 ingest for the issue 9 benchmarks: it answers each request as its ``IngestPlan`` says, decodes
/// every body it acknowledges (JSON, through the SDK's linear parser) and counts the distinct `messageId`s it
/// holds, and checks that no request arrives inside a `Retry-After` window it gave.
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
        /// The end of the latest `Retry-After` window and when it was given.
        var windowEnd: ContinuousClock.Instant?
        var windowGiven: ContinuousClock.Instant?
        /// When the latest bench event arrived.
        var lastDelivery: ContinuousClock.Instant?
    }

    /// The name the benchmark producers give their events, so the count ignores anything else the SDK sends.
    static let benchEventName = "purchase"

    let tally = LockedValue(Tally())
    private let plan: LockedValue<IngestPlan>
    private let clock = ContinuousClock()
    private let created = ContinuousClock.now
    /// With `BENCH_VERBOSE` set, every request's arrival time (seconds since the ingest was created) and answer
    /// are printed, to see where a run stalls.
    private let tracesRequests = environment("BENCH_VERBOSE") != nil

    init(plan: IngestPlan = IngestPlan()) {
        self.plan = LockedValue(plan)
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
            guard let ids = Self.messageIds(in: request.body) else {
                tally.withLock { $0.undecodable += 1 }
                return .status(400)
            }
            tally.withLock { tally in
                tally.answered200 += 1
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
                tally.windowGiven = given
            }
            return .status(429, headers: ["Retry-After": header])
        }
    }

    /// The message ids of a batch body and whether each belongs to a bench event; `nil` when it is not a batch.
    static func messageIds(in body: Data) -> [(String, Bool)]? {
        let limits = JSONParsingLimits(maximumBytes: 64 * 1_048_576, maximumDepth: 64)
        guard let value = try? JSONValue(parsing: body, limits: limits),
            let batch = value["batch"]?.arrayValue
        else { return nil }
        var ids: [(String, Bool)] = []
        ids.reserveCapacity(batch.count)
        for event in batch {
            guard let id = event["messageId"]?.stringValue else { return nil }
            ids.append((id, event["event"]?.stringValue == benchEventName))
        }
        return ids
    }
}
