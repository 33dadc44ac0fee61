import Foundation
import LoopbackHTTP
import Testing

@testable import BinobanCore
@testable import sdkcore

/// Events a full storage refused wait in the instance's write stage for room (`BinobanStatistics.heldEvents`):
/// `sdkcore binoban send` shows them while it runs and counts them in its books at the end (Decision 0229).
@Suite("sdkcore binoban send: events held for room in a full storage")
struct SendHeldEventsTests {
    /// The command's own parts (ledger, ledger storage, counting transport, line delivery) around a real instance
    /// whose storage holds a few events only, with an ingest on 127.0.0.1 that asks to wait a minute: the write
    /// stage holds the rest, the progress line says how many, and after a shutdown that cannot wait for room the
    /// summary's sums still close.
    @Test func theProgressLineShowsHeldEventsAndTheSummaryCountsThem() async throws {
        let server = LoopbackHTTPServer(responder: .always(.status(429, headers: ["Retry-After": "60"])))
        let port = try server.start()
        defer { server.stop() }
        let ledger = SendLedger(checkpoint: nil)
        let storage = InMemoryEventStorage(
            limits: BinobanStorageLimits(maxBatchBytes: 3_000, maxFinishedBatches: 1, maxTotalBytes: 3_000))
        var configuration = Configuration(apiKey: "K", sourceIdentifier: "S")
        configuration.apiHost = "http://127.0.0.1:\(port)"
        configuration.storage = LedgerStorage(base: storage, ledger: ledger)
        configuration.keyValueStore = InMemoryKeyValueStore()
        configuration.backpressure = .wait
        configuration.flushAt = 1000
        configuration.transport = CountingTransport(base: BinobanSend.platformTransport(), ledger: ledger)
        configuration.errorHandler = { _ in }
        let instance = Binoban.create(configuration: configuration)
        for line in 1...20 {
            ledger.update { $0.read += 1 }
            ledger.register(line: line, hashThroughLine: UInt64(line))
            BinobanSend.deliver(try SendLine.parse(Array(#"{"type":"track","name":"e\#(line)"}"#.utf8)), to: instance)
        }
        // Quiet: a write held for room waits for the Retry-After (Decision 0226).
        await instance.waitUntilQuiet()
        ledger.observe(instance.statistics)
        let counts = ledger.counts
        let holding = instance.statistics
        #expect(holding.heldEvents > 0 && holding.heldEvents < 20, "\(holding)")
        #expect(counts.held == holding.heldEvents)
        #expect(counts.stored == holding.queuedEvents)
        let line = SendProgress.line(counts, elapsed: .seconds(1))
        #expect(line.contains("stored \(counts.stored) · held \(holding.heldEvents) · sent 0"), "\(line)")

        // The shutdown cannot wait a minute for room: what it could not store is counted, and the books close.
        _ = await instance.shutdown(gracePeriod: .zero)
        ledger.observe(instance.statistics)
        let outcome = SendOutcome(
            ending: .endOfInput, counts: ledger.counts, statistics: instance.statistics, dryRun: false, storage: nil,
            checkpointFailed: false)
        #expect(outcome.unaccounted == 0, "\(outcome.summary)")
        // The held events could not be stored in time: counted refused by the full storage, none left held.
        #expect(instance.statistics.heldEvents == 0)
        #expect(outcome.failureReasons == "\(holding.heldEvents) refused by a full storage", "\(outcome.summary)")
        #expect(outcome.failed + outcome.notSent == 20, "\(outcome.summary)")
        let summary = try #require(SendSummary(outcome.summary))
        #expect(summary.addsUp, "\(outcome.summary)")
        #expect(ledger.counts.held == instance.statistics.heldEvents)
        #expect(!SendProgress.line(ledger.counts, elapsed: .seconds(1)).contains("held 0"))
    }

    /// A shutdown that ended while events were still held (the instance's deadline passed): with `--storage` they
    /// are not in its files, so they are counted beside them in "not sent", and the summary says the next run
    /// sends them again.
    @Test(arguments: [true, false])
    func eventsStillHeldAtTheEndAreNotSentAndSaidApart(withStorage: Bool) {
        var counts = SendLedger.Counts()
        (counts.read, counts.accepted, counts.stored, counts.sent) = (10, 10, 6, 4)
        var statistics = BinobanStatistics()
        (statistics.acceptedEvents, statistics.uploadedEvents, statistics.queuedEvents, statistics.heldEvents) =
            (10, 4, 2, 4)
        let outcome = SendOutcome(
            ending: .endOfInput, counts: counts, statistics: statistics, dryRun: false,
            storage: withStorage ? "./state" : nil, checkpointFailed: false,
            keptInStorage: withStorage ? 2 : nil)
        #expect(outcome.held == 4)
        #expect(outcome.notSent == 6)
        #expect(outcome.unaccounted == 0)
        #expect(outcome.status == BinobanSendCommand.Status.someFailed)
        let summary = outcome.summary
        #expect(summary.contains("4 sent, 0 failed, 6 not sent"), "\(summary)")
        #expect(SendSummary(summary)?.addsUp == true, "\(summary)")
        if withStorage {
            #expect(summary.contains("the 2 events not sent are kept in ./state for the next run"), "\(summary)")
            #expect(
                summary.contains(
                    "4 events held for room in the full storage could not be stored before the end: the next run on"
                        + " the same input sends them again"), "\(summary)")
        } else {
            #expect(
                summary.contains(
                    "the 6 events not sent are lost with this run (use --storage to keep them) (4 of them held for"
                        + " room in the full storage)"), "\(summary)")
        }
    }
}
