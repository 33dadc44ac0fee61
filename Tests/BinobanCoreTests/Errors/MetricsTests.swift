import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// The metrics observer sees the same figures as the statistics snapshot, with fixed labels and dimensions.
@Suite("Binoban metrics")
struct BinobanMetricsTests {
    @Test("counters add up to the statistics snapshot; the queue gauges and upload timings follow the uploads")
    func countersMatchTheSnapshot() async throws {
        let metrics = InMemoryMetricsObserver()
        let harness = PipelineHarness(script: [400]) { $0.metricsObserver = metrics }
        await harness.settle()
        for index in 0..<3 { harness.binoban.track(name: "first \(index)") }
        await harness.binoban.flushAndWait()
        harness.binoban.enabled = false
        harness.binoban.track(name: "paused")
        harness.binoban.enabled = true
        // The resume starts an upload pass; once it has run, the four events below go into one batch (were they
        // written while it listed, it would close the open batch between them and upload two).
        await harness.settle()
        for index in 0..<4 { harness.binoban.track(name: "second \(index)") }
        await harness.binoban.flushAndWait()
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))

        let statistics = harness.binoban.statistics
        #expect(statistics.uploadedEvents == 4 && statistics.dropped.rejected == 3 && statistics.dropped.paused == 1)
        #expect(metrics.counter("binoban_events_accepted_total") == statistics.acceptedEvents)
        #expect(metrics.counter("binoban_events_stored_total") == statistics.storedEvents)
        #expect(metrics.counter("binoban_events_uploaded_total") == 4)
        #expect(metrics.counter("binoban_batches_uploaded_total") == 1)
        #expect(metrics.counter("binoban_events_dropped_total", ["reason": "rejected"]) == 3)
        #expect(metrics.counter("binoban_events_dropped_total", ["reason": "paused"]) == 1)
        #expect(metrics.counterTotal("binoban_events_dropped_total") == statistics.dropped.total)
        #expect(metrics.counter("binoban_requests_total", ["outcome": "accepted"]) == 1)
        #expect(metrics.counter("binoban_requests_total", ["outcome": "rejected"]) == 1)
        #expect(metrics.gauge("binoban_queue_events") == 0)
        #expect(metrics.gauge("binoban_queue_bytes") == 0)
        #expect(metrics.gauge("binoban_held_events") == 0)
        #expect(metrics.timer("binoban_upload_duration", ["outcome": "accepted"]).count == 1)
        #expect(metrics.timer("binoban_upload_duration", ["outcome": "rejected"]).count == 1)
        // Dimensions come from fixed vocabularies only.
        let dimensionNames = Set(metrics.keys.flatMap(\.dimensions.keys))
        #expect(dimensionNames.isSubset(of: ["reason", "outcome"]))
        #expect(metrics.keys.allSatisfy { $0.label.hasPrefix("binoban_") })
    }

    @Test("a transient failure counts a retry wait and a retried request")
    func retryWaits() async throws {
        let metrics = InMemoryMetricsObserver()
        let harness = PipelineHarness(script: [503, 200]) { $0.metricsObserver = metrics }
        await harness.settle()
        harness.binoban.track(name: "x")
        let flushing = Task { await harness.binoban.flushAndWait() }
        while harness.binoban.statistics.requests.transientFailures == 0 { await Task.yield() }
        while harness.binoban.statistics.uploadedEvents == 0 {
            harness.clock.advance(by: .seconds(1))
            await Task.yield()
        }
        #expect(metrics.counter("binoban_retry_waits_total") == 1)
        #expect(metrics.counter("binoban_requests_retried_total") == 1)
        #expect(metrics.counter("binoban_requests_total", ["outcome": "transientFailure"]) == 1)
        #expect(harness.binoban.statistics.retryWaits == 1)
        _ = await flushing.value
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("events a full storage holds for room show in binoban_held_events until an upload frees room for them")
    func heldEventsGauge() async throws {
        let metrics = InMemoryMetricsObserver()
        // Room for a few events only: the write stage holds the rest while a Retry-After keeps uploads waiting.
        let limits = BinobanStorageLimits(maxBatchBytes: 1_500, maxFinishedBatches: 1, maxTotalBytes: 1_500)
        let harness = PipelineHarness(script: [.retryAfter(60)], limits: limits) {
            $0.metricsObserver = metrics
            $0.backpressure = .wait
            $0.flushAt = 1000
        }
        await harness.settle()
        for index in 0..<20 { harness.binoban.track(name: "e\(index)") }
        await harness.binoban.waitUntilQuiet()
        let holding = harness.binoban.statistics
        #expect(holding.heldEvents > 0 && holding.heldEvents < 20, "\(holding)")
        #expect(metrics.gauge("binoban_held_events") == Double(holding.heldEvents))
        #expect(metrics.gauge("binoban_queue_events") == Double(holding.queuedEvents))
        #expect(
            holding.acceptedEvents == holding.heldEvents + holding.queuedEvents + holding.uploadedEvents
                + holding.dropped.total)

        // The gate opens: uploads free room batch by batch until every held event is stored and sent.
        harness.clock.advance(by: .seconds(61))
        #expect(await harness.binoban.flushAndWait().outcome == .completed)
        let statistics = harness.binoban.statistics
        #expect(statistics.heldEvents == 0 && statistics.uploadedEvents == 20, "\(statistics)")
        #expect(metrics.gauge("binoban_held_events") == 0)
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("the held-events gauge is published with the first snapshot and then only when it changes")
    func heldEventsGaugeOnlyWhenChanged() {
        let recorder = GaugeRecorder()
        var publisher = BinobanMetricsPublisher(observer: recorder)
        var statistics = BinobanStatistics()
        publisher.publish(statistics)
        #expect(recorder.values("binoban_held_events") == [0])
        statistics.acceptedEvents = 10
        statistics.heldEvents = 10
        publisher.publish(statistics)
        statistics.heldEvents = 6
        statistics.queuedEvents = 4
        publisher.publish(statistics)
        // Other figures change, the held events do not: no new reading.
        statistics.uploadedEvents = 4
        statistics.queuedEvents = 0
        publisher.publish(statistics)
        publisher.publish(statistics)
        statistics.heldEvents = 0
        statistics.queuedEvents = 6
        publisher.publish(statistics)
        #expect(recorder.values("binoban_held_events") == [0, 10, 6, 0])
        // The queue gauges keep their own rule: a reading per change of the queue.
        #expect(recorder.values("binoban_queue_events") == [0, 4, 0, 6])
    }
}

/// Keeps every gauge reading in order, so a test sees each publication, not only the last value.
private final class GaugeRecorder: SDKCoreMetricsObserver {
    private let readings = LockedValue<[(label: String, value: Double)]>([])

    func record(_ metric: SDKCoreMetric) {
        guard case .gauge(let value) = metric.value else { return }
        readings.withLock { $0.append((metric.label, value)) }
    }

    func values(_ label: String) -> [Double] {
        readings.withLock { $0.filter { $0.label == label }.map(\.value) }
    }
}
