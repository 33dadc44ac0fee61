/// Turns the pipeline's statistics snapshots into metrics for the host's `SDKCoreMetricsObserver`: each
/// counter that grew since the previous snapshot as an increment, the queue depth and the events held for room as
/// gauges when they changed, and one timer sample per answered or failed upload.
///
/// The counters are the snapshot's, so the observer's totals always equal ``Binoban/statistics``.
struct BinobanMetricsPublisher: Sendable {
    /// The labels, fixed so that dashboards can rely on them.
    enum Label {
        static let accepted = "binoban_events_accepted_total"
        static let stored = "binoban_events_stored_total"
        static let uploaded = "binoban_events_uploaded_total"
        static let uploadedBatches = "binoban_batches_uploaded_total"
        static let dropped = "binoban_events_dropped_total"
        /// Events a before-send stage dropped, by the stage's reason (``BinobanStatistics/Drops/stageReasons``).
        static let stageDrops = "binoban_stage_drops_total"
        static let requests = "binoban_requests_total"
        static let retriedRequests = "binoban_requests_retried_total"
        static let retryWaits = "binoban_retry_waits_total"
        static let queuedEvents = "binoban_queue_events"
        static let queuedBytes = "binoban_queue_bytes"
        /// Events a full storage refused that wait in the write stage for room (``BinobanStatistics/heldEvents``).
        static let heldEvents = "binoban_held_events"
        static let uploadDuration = "binoban_upload_duration"
        /// Published by ``StorageFallbackCounter`` when the instance falls back to memory, not from snapshots.
        static let storageFallbacks = "binoban_storage_fallbacks_total"
    }

    private let observer: any SDKCoreMetricsObserver
    private var previous = BinobanStatistics()
    /// Whether a snapshot was published: the first one publishes every gauge, later ones only those that changed.
    private var publishedGauges = false

    init(observer: any SDKCoreMetricsObserver) {
        self.observer = observer
    }

    /// Publishes what changed between the previous snapshot and `statistics`.
    mutating func publish(_ statistics: BinobanStatistics) {
        let old = previous
        previous = statistics
        count(Label.accepted, old.acceptedEvents, statistics.acceptedEvents)
        count(Label.stored, old.storedEvents, statistics.storedEvents)
        count(Label.uploaded, old.uploadedEvents, statistics.uploadedEvents)
        count(Label.uploadedBatches, old.uploadedBatches, statistics.uploadedBatches)
        count(Label.retriedRequests, old.retriedRequests, statistics.retriedRequests)
        count(Label.retryWaits, old.retryWaits, statistics.retryWaits)
        for (reason, counter) in Self.dropReasons {
            count(
                Label.dropped, old.dropped[keyPath: counter], statistics.dropped[keyPath: counter], ["reason": reason])
        }
        for (reason, total) in statistics.dropped.stageReasons {
            count(Label.stageDrops, old.dropped.stageReasons[reason] ?? 0, total, ["reason": reason])
        }
        for (outcome, counter) in Self.requestOutcomes {
            count(
                Label.requests, old.requests[keyPath: counter], statistics.requests[keyPath: counter],
                ["outcome": outcome])
        }
        let first = !publishedGauges
        publishedGauges = true
        if first || old.queuedEvents != statistics.queuedEvents || old.queuedBytes != statistics.queuedBytes {
            observer.record(SDKCoreMetric(label: Label.queuedEvents, value: .gauge(Double(statistics.queuedEvents))))
            observer.record(SDKCoreMetric(label: Label.queuedBytes, value: .gauge(Double(statistics.queuedBytes))))
        }
        if first || old.heldEvents != statistics.heldEvents {
            observer.record(SDKCoreMetric(label: Label.heldEvents, value: .gauge(Double(statistics.heldEvents))))
        }
    }

    /// Records how long one upload took, by outcome (`accepted`, `rejected`, `transientFailure`, `noAnswer`).
    func uploadFinished(_ input: PipelineInput<some InstantProtocol>, after duration: Duration) {
        let outcome: String
        switch input {
        case .answered(_, let status, _, _):
            switch PipelineMachine<ContinuousClock.Instant>.verdict(forStatus: status) {
            case .accepted: outcome = "accepted"
            case .rejected: outcome = "rejected"
            case .transient: outcome = "transientFailure"
            }
        default: outcome = "noAnswer"
        }
        observer.record(
            SDKCoreMetric(label: Label.uploadDuration, dimensions: ["outcome": outcome], value: .duration(duration)))
    }

    private func count(_ label: String, _ old: Int, _ new: Int, _ dimensions: [String: String] = [:]) {
        guard new > old else { return }
        observer.record(SDKCoreMetric(label: label, dimensions: dimensions, value: .increment(new - old)))
    }

    static var dropReasons: [(String, KeyPath<BinobanStatistics.Drops, Int>)] {
        [
            ("paused", \.paused), ("writeStageOverflow", \.writeStageOverflow), ("oversize", \.oversize),
            ("storageEviction", \.storageEviction), ("storageFull", \.storageFull), ("rejected", \.rejected),
            ("storageFailure", \.storageFailure), ("stage", \.stage), ("purged", \.purged), ("expired", \.expired),
        ]
    }

    static var requestOutcomes: [(String, KeyPath<BinobanStatistics.Requests, Int>)] {
        [
            ("accepted", \.accepted), ("rejected", \.rejected), ("transientFailure", \.transientFailures),
            ("noAnswer", \.noAnswer),
        ]
    }
}
