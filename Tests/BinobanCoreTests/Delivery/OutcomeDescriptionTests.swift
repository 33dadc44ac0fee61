import BinobanCore
import Testing

/// Outcomes print as words a log line can hold, not as the module-qualified dumps of nested enums.
@Suite("Outcome descriptions")
struct OutcomeDescriptionTests {
    @Test func eventOutcomesNameTheirCaseAndReason() {
        #expect("\(BinobanEventOutcome.finished(.uploaded))" == "finished: uploaded")
        #expect("\(BinobanEventOutcome.finished(.rejected(status: 400)))" == "finished: rejected (status 400)")
        #expect(
            "\(BinobanEventOutcome.finished(.dropped(.storageEviction)))" == "finished: dropped (storageEviction)")
        #expect("\(BinobanEventOutcome.finished(.dropped(.stage("pii"))))" == "finished: dropped (stage: pii)")
        #expect("\(BinobanEventOutcome.notAccepted)" == "notAccepted")
        #expect("\(BinobanEventOutcome.unfinished)" == "unfinished")
        #expect(!"\(BinobanEventOutcome.finished(.dropped(.paused)))".contains("BinobanCore."))
    }

    @Test func deliveriesGiveTheCountWithoutTheIds() {
        let delivery = BinobanDelivery(messageIds: ["m-1", "m-2"], eventCount: 2, outcome: .dropped(.oversize))
        #expect("\(delivery)" == "2 events: dropped (oversize)")
        #expect("\(BinobanDelivery(messageIds: [], eventCount: 1, outcome: .uploaded))" == "1 event: uploaded")
    }

    @Test func flushAndPurgeResultsStateEveryCountOnce() {
        let flush = BinobanFlushResult(
            outcome: .keptForRetry, uploadedBatches: 2, uploadedEvents: 40, rejectedBatches: 1, rejectedEvents: 3,
            droppedEvents: 5)
        #expect(
            "\(flush)"
                == "keptForRetry: 2 batches (40 events) uploaded, 1 batch (3 events) rejected, 5 events dropped")
        #expect("\(BinobanFlushResult.Outcome.completed)" == "completed")
        #expect("\(BinobanPurgeResult(purgedEvents: 40, purgedBatches: 2))" == "purged 40 events in 2 batches")
    }
}
