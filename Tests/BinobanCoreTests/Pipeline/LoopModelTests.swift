import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// What a ``SeededIngest`` throws for a request it leaves unanswered.
private struct SeededIngestUnanswered: Error {}

/// An ingest whose answers come from a seed, in the order requests arrive: 200, 429 with `Retry-After` 0 or 1 s,
/// 500, 400, or no answer. It keeps the message ids of every batch it answered, with the answer.
private final class SeededIngest: BinobanEventTransport {
    /// One answered request.
    struct Answered {
        var messageIds: [String]
        /// The status, or `nil` when the request got no answer.
        var status: Int?
    }

    private let random: SeededRandomSource
    /// Out of 100, how many answers are 200 (the rest are shared among the failures).
    private let healthy: LockedValue<Int>
    private let answered = LockedValue<[Answered]>([])

    init(seed: UInt64, healthy: Int) {
        random = SeededRandomSource(seed: seed)
        self.healthy = LockedValue(healthy)
    }

    /// From now on, `healthy` answers out of 100 are 200 (0: the ingest is down; 100: it answers every request).
    func setHealthy(_ healthy: Int) { self.healthy.withLock { $0 = healthy } }

    var requests: [Answered] { answered.withLock { $0 } }

    /// The message ids of every batch answered 2xx, in the order the answers were given.
    var ingested: [String] { requests.filter { ($0.status ?? 0) / 100 == 2 }.flatMap(\.messageIds) }

    func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        let ids = try UploadedBatch.decode(request.body).batch.map(\.messageId)
        // The answer is chosen and recorded under one lock, so the record's order is the answers' order.
        let healthy = healthy.withLock { $0 }
        let answer: (status: Int?, retryAfter: Int?) = answered.withLock { answered in
            let roll = Int(random.next() % 100)
            let failure = roll < healthy ? -1 : Int(random.next() % 6)
            let answer: (Int?, Int?) =
                switch failure {
                case -1: (200, nil)
                case 0: (429, 0)
                case 1: (429, 1)
                case 2: (500, nil)
                case 3: (400, nil)
                default: (nil, nil)
                }
            answered.append(Answered(messageIds: ids, status: answer.0))
            return answer
        }
        guard let status = answer.status else { throw SeededIngestUnanswered() }
        return BinobanTransportResponse(
            statusCode: status, headers: answer.retryAfter.map { ["Retry-After": String($0)] } ?? [:])
    }
}

/// What the callers of one run were told, recorded as the instance told it.
private final class CallerRecord: Sendable {
    private struct State {
        /// Each awaited flush started through the synchronous hook, with every result it was handed.
        var flushResults: [Int: [BinobanFlushResult]] = [:]
        /// Each awaited server call's message id, with every outcome the instance settled it with.
        var settled: [String: [BinobanEventOutcome]] = [:]
    }

    private let state = LockedValue(State())

    func startFlush() -> Int {
        state.withLock { state in
            let number = state.flushResults.count
            state.flushResults[number] = []
            return number
        }
    }

    func resolveFlush(_ number: Int, _ result: BinobanFlushResult) {
        state.withLock { $0.flushResults[number, default: []].append(result) }
    }

    func flushResults(_ number: Int) -> [BinobanFlushResult] { state.withLock { $0.flushResults[number] ?? [] } }

    var allFlushResults: [Int: [BinobanFlushResult]] { state.withLock { $0.flushResults } }

    func settle(_ messageId: String, _ outcome: BinobanEventOutcome) {
        state.withLock { $0.settled[messageId, default: []].append(outcome) }
    }

    var settled: [String: [BinobanEventOutcome]] { state.withLock { $0.settled } }
}

/// One seeded run of a real instance: its loop thread, its machine, a real storage (in memory with tiny caps, or
/// the default file storage in a temporary directory) and a seeded ingest, on a manual clock. A seeded sequence
/// of calls (`track`, `server.track`, awaited server calls, `flush`, `flushAndWait`, pause and resume,
/// `purgeBacklog`, time passing) ends with a shutdown whose grace period is drawn (none, short, long, with the
/// ingest as it was, down or healthy), time moving through the loop's deadlines while it drains; the checks are
/// what a user can see: results, outcomes, statistics, delivery reports, what the ingest received and what stayed
/// stored (read back from memory, or found and uploaded by a new instance on the same directory).
private struct LoopModelRun {
    let seed: UInt64
    let random: SeededRandomSource
    /// The calls made so far, shown when a check fails.
    /// `LOOP_MODEL_TRACE=1` in the environment also writes each to standard error as it is made.
    var trace: [String] = [] {
        didSet {
            guard ProcessInfo.processInfo.environment["LOOP_MODEL_TRACE"] != nil, let last = trace.last else { return }
            FileHandle.standardError.write(Data("\(last)\n".utf8))
        }
    }

    init(seed: UInt64) {
        self.seed = seed
        random = SeededRandomSource(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 0x2545_F491)
    }

    /// A seeded number in `0..<count`.
    func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }

    mutating func run() async throws {
        if pick(4) == 0 {
            try await withTemporaryDirectory { directory in
                try await run(directory: directory.appendingPathComponent("binoban", isDirectory: true))
            }
        } else {
            try await run(directory: nil)
        }
    }

    mutating func run(directory: URL?) async throws {
        let limits = BinobanStorageLimits(
            maxEventBytes: 2_000, maxBatchBytes: 2_000 + pick(3_001), envelopeOverheadBytes: 100,
            maxFinishedBatches: 1 + pick(3), maxTotalBytes: 3_000 + pick(5_001))
        let clock = ManualClock()
        let ingest = SeededIngest(seed: seed, healthy: [30, 60, 85][pick(3)])
        let deliveries = DeliveryRecorder()
        let callers = CallerRecord()
        var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "SRC")
        configuration.apiHost = "api.binoban.io"
        let memory = directory == nil ? InMemoryEventStorage(limits: limits, writeKey: "SRC") : nil
        if let directory {
            configuration.storageDirectory = directory
        } else {
            configuration.storage = memory
            configuration.keyValueStore = InMemoryKeyValueStore()
        }
        configuration.storageLimits = limits
        configuration.transport = ingest
        configuration.clock = clock
        configuration.wallClock = clock
        configuration.randomSource = SeededRandomSource(seed: seed)
        configuration.contextProvider = FixedContextProvider()
        configuration.trackApplicationLifecycleEvents = false
        configuration.flushAt = 1 + pick(6)
        configuration.flushInterval = Double(5 + pick(26))
        configuration.uploadMaxRetries = pick(4)
        configuration.maxConcurrentUploads = 1 + pick(2)
        configuration.maxFilesPerFlush = 1 + pick(3)
        configuration.writeStageCapacity = 4 + pick(29)
        configuration.backpressure = pick(3) == 0 ? .dropNewest : .dropOldest
        if pick(4) == 0 { configuration.maxEventAge = .seconds(20 + pick(41)) }
        configuration.deliveryObserver = deliveries
        configuration.errorHandler = { _ in }
        trace.append(
            "seed \(seed): \(directory == nil ? "memory" : "files") \(limits) flushAt \(configuration.flushAt) "
                + "interval \(configuration.flushInterval) retries \(configuration.uploadMaxRetries) "
                + "uploads \(configuration.maxConcurrentUploads) files \(configuration.maxFilesPerFlush) "
                + "stage \(configuration.writeStageCapacity) \(configuration.backpressure) "
                + "maxAge \(configuration.maxEventAge.map { "\($0)" } ?? "none")")
        let binoban = Binoban.create(configuration: configuration)
        #expect(binoban.isOperational)

        let handover = Handover()
        binoban.observeAwaitedCalls(
            admitted: { handover.admitted() }, settled: { messageId, outcome in callers.settle(messageId, outcome) })
        await binoban.waitUntilQuiet()

        var awaitedCalls: [(messageId: String, task: Task<BinobanEventOutcome, Never>)] = []
        var awaitedFlushes: [Task<BinobanFlushResult, Never>] = []
        var purges: [Task<BinobanPurgeResult, Never>] = []
        var paused = false
        let steps = 40 + pick(41)
        for step in 0..<steps {
            let roll = pick(100)
            switch roll {
            case 0..<30:
                let oversize = pick(25) == 0
                trace.append("\(step) track\(oversize ? " oversize" : "")")
                binoban.track(
                    name: "t\(step)",
                    properties: oversize ? ["pad": .string(String(repeating: "x", count: 2_100))] : [:])
            case 30..<45:
                trace.append("\(step) server.track")
                binoban.server.track(name: "s\(step)", as: BinobanEventIdentity(userId: "u\(pick(3))"))
            case 45..<53:
                let messageId = "awaited-\(seed)-\(step)"
                trace.append("\(step) awaited server.track \(messageId)")
                var started: Task<BinobanEventOutcome, Never>?
                await handover.wait { number in
                    started = Task { [server = binoban.server.awaitingDelivery] in
                        let outcome = await server.track(
                            name: "a\(step)", as: BinobanEventIdentity(anonymousId: "anon"),
                            fields: BinobanMessageFields(messageId: messageId))
                        handover.returned(number)
                        return outcome
                    }
                }
                if let started { awaitedCalls.append((messageId, started)) }
            case 53..<59:
                trace.append("\(step) flush")
                binoban.flush()
            case 59..<64:
                // An awaited flush the test waits for, moving time through the loop's deadlines until it resolves.
                let number = callers.startFlush()
                trace.append("\(step) awaited flush #\(number)")
                binoban.flush { callers.resolveFlush(number, $0) }
                var hops = 0
                await binoban.waitUntilQuiet()
                while callers.flushResults(number).isEmpty, hops < 1_000,
                    let wait = await binoban.timeUntilNextDeadline()
                {
                    clock.advance(by: wait)
                    await binoban.waitUntilQuiet()
                    hops += 1
                }
                #expect(
                    callers.flushResults(number).count == 1,
                    "awaited flush #\(number) unresolved after \(hops) deadlines\n\(trace.joined(separator: "\n"))")
            case 64..<68:
                // The test goes on once the flush is requested, so that it covers exactly the calls made before.
                trace.append("\(step) flushAndWait in a task")
                await withCheckedContinuation { (requested: CheckedContinuation<Void, Never>) in
                    awaitedFlushes.append(Task { await binoban.flushAndWait { requested.resume() } })
                }
            case 68..<73:
                paused.toggle()
                trace.append("\(step) enabled = \(!paused)")
                binoban.enabled = !paused
            case 73..<76:
                // The test goes on once the purge is requested: purges asked for together share one run, and
                // their results could not be added up.
                trace.append("\(step) purgeBacklog in a task")
                await withCheckedContinuation { (requested: CheckedContinuation<Void, Never>) in
                    purges.append(Task { await binoban.purgeBacklog { requested.resume() } })
                }
            default:
                let target = clock.now.advanced(by: .milliseconds(pick(2) == 0 ? 0 : pick(8_000)))
                trace.append("\(step) advance to \(target)")
                await advance(clock, binoban, to: target)
            }
            await binoban.waitUntilQuiet()
            checkBooks(binoban.statistics, ingest, when: "after step \(step)")
        }

        // A shutdown whose grace period is drawn: none, shorter than a backoff, or longer than every retry's wait;
        // with the ingest as it was, down, or answering every request. Time moves through the loop's deadlines
        // while the shutdown drains.
        let grace: Duration =
            switch pick(3) {
            case 0: .zero
            case 1: .milliseconds(1 + pick(2_000))
            default: .seconds(120 + pick(481))
            }
        let health = [nil, 0, 100][pick(3)]
        if let health { ingest.setHealthy(health) }
        trace.append("shutdown(gracePeriod: \(grace))\(health.map { ", the ingest answering \($0) % with 200" } ?? "")")
        guard let shutdown = await shutDown(binoban, clock, gracePeriod: grace, ingest: ingest) else { return }
        trace.append("shutdown returned \(shutdown.result); \(shutdown.requestsAfterPosting) requests after posting")
        if grace == .zero {
            // A shutdown whose deadline has passed starts no request (Decision 0235).
            #expect(shutdown.requestsAfterPosting == 0, "\(traceText)")
            #expect(shutdown.result.outcome == (paused ? .paused : .interrupted), "\(traceText)")
        }

        // Every awaited flush and awaited event resolved exactly once.
        for (number, results) in callers.allFlushResults {
            #expect(results.count == 1, "awaited flush #\(number): \(results)\n\(traceText)")
        }
        for flush in awaitedFlushes { _ = await flush.value }
        var purged = 0
        for purge in purges { purged += await purge.value.purgedEvents }
        let statistics = binoban.statistics
        let settled = callers.settled
        let ingested = ingest.ingested
        let ingestedSet = Set(ingested)
        // What the run left stored: read from the in-memory storage, or uploaded by a new instance on the directory.
        let kept = try await keptMessageIds(memory: memory, directory: directory)
        let keptSet = Set(kept)
        #expect(keptSet.count == kept.count, "an event stored twice\n\(traceText)")
        #expect(kept.count == statistics.queuedEvents, "kept \(kept.count): \(statistics)\n\(traceText)")
        #expect(keptSet.isDisjoint(with: ingestedSet), "an event ingested and still stored\n\(traceText)")
        if health == 100, !paused, grace > .seconds(60) {
            // With the ingest answering and time for every retry, the final flush uploads everything.
            #expect(shutdown.result.outcome == .completed, "\(shutdown.result)\n\(traceText)")
            #expect(kept.isEmpty, "\(statistics)\n\(traceText)")
        }
        for (messageId, task) in awaitedCalls {
            let outcome = await task.value
            let settlements = settled[messageId] ?? []
            switch outcome {
            case .finished(let delivery):
                #expect(
                    settlements == [outcome], "\(messageId): returned \(outcome), settled \(settlements)\n\(traceText)")
                #expect(
                    ingestedSet.contains(messageId) == (delivery == .uploaded),
                    "\(messageId): \(outcome), ingested: \(ingestedSet.contains(messageId))\n\(traceText)")
                #expect(!keptSet.contains(messageId), "\(messageId): \(outcome), but still stored\n\(traceText)")
            case .unfinished:
                #expect(settlements.count <= 1, "\(messageId): settled \(settlements)\n\(traceText)")
                #expect(keptSet.contains(messageId), "\(messageId): unfinished, but not stored\n\(traceText)")
            case .notAccepted, .cancelled:
                Issue.record("\(messageId): \(outcome) from a running instance\n\(traceText)")
            }
        }
        #expect(statistics.dropped.purged == purged, "\(statistics)\n\(traceText)")

        // The books close, and the ingest took each event once, exactly those counted uploaded.
        checkBooks(statistics, ingest, when: "after shutdown")
        #expect(statistics.heldEvents == 0, "events held after shutdown: \(statistics)\n\(traceText)")
        checkReports(deliveries.deliveries, statistics, ingested: ingested)
    }

    /// What ``shutDown(_:_:gracePeriod:)`` saw.
    private struct ShutdownSeen {
        var result: BinobanFlushResult
        /// Requests the ingest received after the shutdown was handed to the pipeline.
        var requestsAfterPosting: Int
    }

    /// Shuts `binoban` down, moving the clock through the loop's deadlines while it drains; `nil` (with an issue
    /// recorded) when the loop neither finishes nor has a deadline to step to.
    private func shutDown(
        _ binoban: Binoban, _ clock: ManualClock, gracePeriod: Duration, ingest: SeededIngest? = nil
    ) async -> ShutdownSeen? {
        let requestsAtPosting = LockedValue(0)
        var started: Task<BinobanFlushResult, Never>?
        await withCheckedContinuation { (posted: CheckedContinuation<Void, Never>) in
            started = Task {
                await binoban.shutdown(gracePeriod: gracePeriod) {
                    requestsAtPosting.withLock { $0 = ingest?.requests.count ?? 0 }
                    posted.resume()
                }
            }
        }
        guard let started else { return nil }
        var hops = 0
        while hops < 10_000 {
            await binoban.waitUntilQuiet()
            // Nil once the loop finished (or, a defect, while it waits for nothing: the shutdown then never returns).
            guard let wait = await binoban.timeUntilNextDeadline() else { break }
            clock.advance(by: wait)
            hops += 1
        }
        guard hops < 10_000 else {
            Issue.record("the shutdown still runs after \(hops) deadlines\n\(traceText)")
            return nil
        }
        let result = await started.value
        return ShutdownSeen(
            result: result, requestsAfterPosting: (ingest?.requests.count ?? 0) - requestsAtPosting.withLock { $0 })
    }

    /// The message ids a run left stored: read from its in-memory storage, or, with files, those a new instance on
    /// the same directory finds and uploads (a healthy ingest, time for everything).
    private func keptMessageIds(memory: InMemoryEventStorage?, directory: URL?) async throws -> [String] {
        if let memory {
            // Read as they are: closing the open batch to list it could evict.
            let ids = await memory.storedBatchEvents.flatMap(BatchMessageIDs.messageIds(in:))
            #expect(await memory.storedEventCount == ids.count, "\(traceText)")
            return ids
        }
        guard let directory else { return [] }
        let clock = ManualClock()
        let ingest = SeededIngest(seed: seed, healthy: 100)
        var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "SRC")
        configuration.apiHost = "api.binoban.io"
        configuration.storageDirectory = directory
        // The default limits: the run's tiny caps would evict part of what it left when the open batch is closed.
        configuration.transport = ingest
        configuration.clock = clock
        configuration.wallClock = clock
        configuration.randomSource = SeededRandomSource(seed: seed &+ 1)
        configuration.contextProvider = FixedContextProvider()
        configuration.trackApplicationLifecycleEvents = false
        configuration.errorHandler = { _ in }
        let next = Binoban.create(configuration: configuration)
        await next.waitUntilQuiet()
        let found = next.statistics.recoveredEvents
        guard let seen = await shutDown(next, clock, gracePeriod: .seconds(600)) else { return [] }
        let statistics = next.statistics
        #expect(seen.result.outcome == .completed, "next run: \(seen.result)\n\(traceText)")
        #expect(statistics.uploadedEvents == found, "next run found \(found): \(statistics)\n\(traceText)")
        #expect(statistics.dropped.total == 0, "next run: \(statistics)\n\(traceText)")
        #expect(statistics.queuedEvents == 0, "next run: \(statistics)\n\(traceText)")
        return ingest.ingested
    }

    private var traceText: String { trace.joined(separator: "\n") }

    /// Moves the clock to `target` one loop deadline at a time, letting the loop settle after each.
    private func advance(_ clock: ManualClock, _ binoban: Binoban, to target: ManualClock.Instant) async {
        await binoban.waitUntilQuiet()
        while let wait = await binoban.timeUntilNextDeadline(), clock.now.advanced(by: wait) <= target {
            clock.advance(by: wait)
            await binoban.waitUntilQuiet()
        }
        if clock.now < target { clock.advance(by: clock.now.duration(to: target)) }
    }

    /// The statistics close while the loop is quiet, and the ingest received exactly the uploaded events, each once.
    private func checkBooks(_ statistics: BinobanStatistics, _ ingest: SeededIngest, when: String) {
        let comment = Comment(rawValue: "\(when): \(statistics)\n\(traceText)")
        // Events held for room (a full storage, uploads waiting for time) are counted held (Decision 0226).
        #expect(
            statistics.acceptedEvents + statistics.recoveredEvents
                == statistics.heldEvents + statistics.queuedEvents + statistics.uploadedEvents
                + statistics.dropped.total,
            comment)
        #expect(statistics.heldEvents >= 0, comment)
        #expect(statistics.queuedEvents >= 0, comment)
        let ingested = ingest.ingested
        #expect(Set(ingested).count == ingested.count, "an event ingested twice \(when)\n\(traceText)")
        let accepted = ingest.requests.filter { ($0.status ?? 0) / 100 == 2 }.count
        #expect(ingested.count == statistics.uploadedEvents, comment)
        #expect(accepted == statistics.uploadedBatches, comment)
        #expect(statistics.requests.accepted == accepted, comment)
    }

    /// The delivery observer's final reports add up to the statistics; what it reports uploaded is what the ingest
    /// received, and nothing the ingest received is reported dropped or rejected.
    private func checkReports(_ reports: [BinobanDelivery], _ statistics: BinobanStatistics, ingested: [String]) {
        let comment = Comment(rawValue: "\(statistics)\n\(reports)\n\(traceText)")
        func events(_ matching: (BinobanDeliveryOutcome) -> Bool) -> Int {
            reports.filter { matching($0.outcome) }.reduce(0) { $0 + $1.eventCount }
        }
        func dropped(_ reason: BinobanDropReason) -> Int { events { $0 == .dropped(reason) } }
        #expect(events { $0 == .uploaded } == statistics.uploadedEvents, comment)
        #expect(events { if case .rejected = $0 { true } else { false } } == statistics.dropped.rejected, comment)
        let drops = statistics.dropped
        #expect(dropped(.paused) == drops.paused, comment)
        #expect(dropped(.writeStageOverflow) == drops.writeStageOverflow, comment)
        #expect(dropped(.oversize) == drops.oversize, comment)
        #expect(dropped(.storageEviction) == drops.storageEviction, comment)
        #expect(dropped(.storageFull) == drops.storageFull, comment)
        #expect(dropped(.storageFailure) == drops.storageFailure, comment)
        #expect(dropped(.purged) == drops.purged, comment)
        #expect(dropped(.expired) == drops.expired, comment)
        #expect(events { $0.isFinal } == statistics.uploadedEvents + drops.total, comment)
        for report in reports where report.outcome.isFinal {
            #expect(report.messageIds.isEmpty || report.messageIds.count == report.eventCount, comment)
        }
        // Every event reported uploaded reached the ingest; none the ingest took is reported lost.
        let uploaded = reports.filter { $0.outcome == .uploaded }.flatMap(\.messageIds)
        #expect(Set(uploaded).isSubset(of: Set(ingested)), comment)
        #expect(uploaded.count == statistics.uploadedEvents, comment)
        let ingestedSet = Set(ingested)
        let lost = reports.filter { $0.outcome.isFinal && $0.outcome != .uploaded }.flatMap(\.messageIds)
        #expect(lost.filter(ingestedSet.contains).isEmpty, "ingested but reported lost\n\(comment)")
    }
}

@Suite("Seeded model: the real loop, driven through the facade on a manual clock")
struct LoopModelTests {
    /// Enough seeds to meet every answer, storage kind and call in many orders (each run takes a few milliseconds);
    /// `LOOP_MODEL_SEEDS=3,17` in the environment runs those seeds alone, `LOOP_MODEL_SEEDS=1-4000` a range.
    /// Seed 3019 holds a write for room while a `Retry-After` keeps uploads waiting (it hung before Decision 0226).
    static let seeds: [UInt64] =
        ProcessInfo.processInfo.environment["LOOP_MODEL_SEEDS"].map {
            $0.split(separator: ",").flatMap { part -> [UInt64] in
                let bounds = part.split(separator: "-").compactMap { UInt64($0) }
                return bounds.count == 2 ? Array(bounds[0]...bounds[1]) : bounds
            }
        }
        ?? Array(1...160) + [3019]

    /// The limit catches a hang, not slowness: a seed takes about 0.1 s alone, but the whole suite under the address
    /// sanitizer on 2 cores once left one waiting past a minute for a thread (seed 19; it passed on the next run).
    @Test(
        "Results, outcomes, statistics, reports and the ingest agree, whatever the seeded calls and answers",
        .timeLimit(.minutes(10)), arguments: seeds)
    func seededRun(seed: UInt64) async throws {
        var run = LoopModelRun(seed: seed)
        try await run.run()
    }
}
