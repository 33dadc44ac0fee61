import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// `Configuration.maxEventAge`: events older than it when their batch is read for upload are left out of the
/// request, counted as `expired`, reported and told to the delivery observer. Virtual clocks: the wall clock starts
/// at 2026-08-02T12:00:00.000Z, and old events carry an older caller timestamp.
@Suite("Max event age")
struct MaxEventAgeTests {
    static let now = Date(timeIntervalSince1970: 1_785_672_000)

    struct Instance {
        let binoban: Binoban
        let transport: ScriptedTransport
        let deliveries: DeliveryRecorder
        let metrics: InMemoryMetricsObserver
        let storage: InMemoryEventStorage
        let errors: LockedValue<[BinobanError]>
    }

    static func instance(maxEventAge: Duration?, flushAt: Int = 20) -> Instance {
        let clock = ManualClock()
        let transport = ScriptedTransport()
        let deliveries = DeliveryRecorder()
        let metrics = InMemoryMetricsObserver()
        let storage = InMemoryEventStorage(writeKey: "SOURCE")
        let errors = LockedValue<[BinobanError]>([])
        var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "SOURCE")
        configuration.apiHost = "api.binoban.io"
        configuration.transport = transport
        configuration.storage = storage
        configuration.keyValueStore = InMemoryKeyValueStore()
        configuration.clock = clock
        configuration.wallClock = clock
        configuration.randomSource = SeededRandomSource(seed: 11)
        configuration.contextProvider = FixedContextProvider()
        configuration.flushAt = flushAt
        configuration.maxEventAge = maxEventAge
        configuration.deliveryObserver = deliveries
        configuration.metricsObserver = metrics
        configuration.errorHandler = { error in errors.withLock { $0.append(error) } }
        return Instance(
            binoban: Binoban.create(configuration: configuration), transport: transport, deliveries: deliveries,
            metrics: metrics, storage: storage, errors: errors)
    }

    func trackOld(_ instance: Instance, _ name: String, hoursAgo: Double, id: String) {
        instance.binoban.server.track(
            name: name, as: BinobanEventIdentity(userId: "u"),
            fields: BinobanMessageFields(timestamp: Self.now.addingTimeInterval(-hoursAgo * 3600), messageId: id))
    }

    @Test("A batch with old and fresh events: only the fresh ones are sent, the old ones counted and named")
    func mixedBatch() async throws {
        let instance = Self.instance(maxEventAge: .seconds(3600))
        await instance.binoban.flushAndWait()
        trackOld(instance, "old", hoursAgo: 3, id: "old-1")
        trackOld(instance, "recent", hoursAgo: 0.5, id: "recent-1")
        instance.binoban.server.track(
            name: "fresh", as: BinobanEventIdentity(userId: "u"), fields: BinobanMessageFields(messageId: "fresh-1"))
        let result = await instance.binoban.flushAndWait()
        #expect(result.outcome == .completed)
        #expect(result.uploadedEvents == 2)
        #expect(result.droppedEvents == 1)
        let batches = try instance.transport.requests.map { try UploadedBatch.decode($0.body) }
        #expect(batches.map { $0.batch.map(\.messageId) } == [["recent-1", "fresh-1"]])
        _ = await instance.binoban.shutdown(gracePeriod: .zero)
        let statistics = instance.binoban.statistics
        #expect(statistics.dropped.expired == 1)
        #expect(statistics.dropped.total == 1)
        #expect(statistics.uploadedEvents == 2)
        #expect(statistics.queuedEvents == 0)
        #expect(statistics.acceptedEvents == statistics.uploadedEvents + statistics.dropped.total)
        let outcomes = instance.deliveries.deliveries.map { ($0.outcome, $0.messageIds) }
        #expect(outcomes.contains { $0.0 == .dropped(.expired) && $0.1 == ["old-1"] }, "\(outcomes)")
        #expect(outcomes.contains { $0.0 == .uploaded && $0.1 == ["recent-1", "fresh-1"] }, "\(outcomes)")
        #expect(instance.metrics.counter("binoban_events_dropped_total", ["reason": "expired"]) == 1)
        let report = instance.errors.withLock { $0 }.first { $0.kind == .expiredEvent }
        #expect(report?.eventCount == 1)
        #expect(await instance.storage.finishedBatchCount == 0)
    }

    @Test("A batch whose events all expired is deleted without a request")
    func allExpired() async throws {
        let instance = Self.instance(maxEventAge: .seconds(60))
        await instance.binoban.flushAndWait()
        trackOld(instance, "a", hoursAgo: 2, id: "a-1")
        trackOld(instance, "b", hoursAgo: 2, id: "b-1")
        let result = await instance.binoban.flushAndWait()
        #expect(result.outcome == .completed)
        #expect(result.droppedEvents == 2)
        #expect(instance.transport.requests.isEmpty)
        _ = await instance.binoban.shutdown(gracePeriod: .zero)
        #expect(instance.binoban.statistics.dropped.expired == 2)
        #expect(instance.binoban.statistics.queuedEvents == 0)
        let expired = instance.deliveries.deliveries.filter { $0.outcome == .dropped(.expired) }
        #expect(expired.map(\.messageIds) == [["a-1", "b-1"]])
        #expect(await instance.storage.finishedBatchCount == 0)
    }

    @Test("An awaited event that expires finishes as dropped (expired)")
    func awaitedEventExpires() async throws {
        // flushAt 1: storing the event starts the upload pass that reads its batch.
        let instance = Self.instance(maxEventAge: .seconds(60), flushAt: 1)
        await instance.binoban.flushAndWait()
        let outcome = await instance.binoban.server.awaitingDelivery.track(
            name: "late", as: BinobanEventIdentity(userId: "u"),
            fields: BinobanMessageFields(timestamp: Self.now.addingTimeInterval(-7200), messageId: "late-1"))
        #expect(outcome == .finished(.dropped(.expired)))
        #expect(instance.transport.requests.isEmpty)
        _ = await instance.binoban.shutdown(gracePeriod: .zero)
    }

    @Test("Without maxEventAge (the default) nothing expires, however old")
    func noLimitByDefault() async throws {
        #expect(Configuration(apiKey: "K", sourceIdentifier: "S").maxEventAge == nil)
        let instance = Self.instance(maxEventAge: nil)
        await instance.binoban.flushAndWait()
        trackOld(instance, "ancient", hoursAgo: 24 * 365, id: "ancient-1")
        #expect(await instance.binoban.flushAndWait().uploadedEvents == 1)
        _ = await instance.binoban.shutdown(gracePeriod: .zero)
        #expect(instance.binoban.statistics.dropped.expired == 0)
    }

    @Test("Splitting a stored batch: the top-level timestamp decides; nested ones and odd strings do not")
    func splitting() throws {
        let old = "2026-08-02T09:00:00.000Z"
        let fresh = "2026-08-02T11:59:00.000Z"
        let events = [
            #"{"messageId":"m1","timestamp":"\#(old)","properties":{"timestamp":"\#(fresh)"}}"#,
            #"{"properties":{"timestamp":"\#(old)","note":"a \"quoted\" } brace"},"timestamp":"\#(fresh)","messageId":"m2"}"#,
            #"{"messageId":"m3","timestamp":"not a date"}"#,
            #"{"messageId":"m4"}"#,
            #"{"timestamp" : "\#(old)", "messageId" : "m5"}"#,
        ]
        let data = Data(events.joined(separator: ",").utf8)
        #expect(ExpiredEvents.topLevelObjects(in: data).count == 5)
        let cutoff = try #require(ISO8601Parse.millis("2026-08-02T11:00:00.000Z"))
        let split = try #require(ExpiredEvents.split(data, olderThanMillis: cutoff))
        #expect(split.expiredCount == 2)
        #expect(split.expiredIds == ["m1", "m5"])
        #expect(split.keptCount == 3)
        #expect(
            String(decoding: split.kept, as: UTF8.self) == [events[1], events[2], events[3]].joined(separator: ","))
        #expect(ExpiredEvents.split(data, olderThanMillis: cutoff - 3 * 3_600_000) == nil)
    }

    @Test("Timestamps parse back to the milliseconds the encoder wrote, across the calendar")
    func parsingRoundTrips() {
        let random = SeededRandomSource(seed: 3)
        for _ in 0..<2_000 {
            let span = ISO8601Timestamp.latestMillisecondsSince1970 - ISO8601Timestamp.earliestMillisecondsSince1970
            let millis =
                ISO8601Timestamp.earliestMillisecondsSince1970 + Int64(random.nextUnitInterval() * Double(span))
            let text = ISO8601Timestamp.string(fromMillisecondsSince1970: millis)
            #expect(ISO8601Parse.millis(text) == millis, "\(text)")
        }
        #expect(ISO8601Parse.millis("1970-01-01T00:00:00Z") == 0)
        #expect(ISO8601Parse.millis("1970-01-01T00:00:00.5Z") == 500)
        #expect(ISO8601Parse.millis("2026-13-01T00:00:00.000Z") == nil)
        #expect(ISO8601Parse.millis("2026-08-02 12:00:00.000Z") == nil)
        #expect(ISO8601Parse.millis("2026-08-02T12:00:00.0000Z") == nil)
    }
}

/// Parses a timestamp text with the splitter's parser.
private enum ISO8601Parse {
    static func millis(_ text: String) -> Int64? {
        Array(text.utf8).withUnsafeBytes { ExpiredEvents.parse($0) }
    }
}
