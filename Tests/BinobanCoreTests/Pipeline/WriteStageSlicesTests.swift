import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// The events the loop encodes for a chunk share one buffer when the storage is the SDK's own, and get one each
/// when it is a host's: the bytes and the order are the same either way.
@Suite("Write stage: a chunk's loop-encoded events as slices of one buffer")
struct WriteStageSlicesTests {
    private static let encoder = EventEncoder(context: BinobanStaticContext(), deviceId: nil)

    private static func event(_ index: Int, _ random: SeededRandomSource) -> PendingEvent {
        PendingEvent(
            kind: .track, name: "event-\(index)",
            payload: ["index": .int(index), "pad": .string(String(repeating: "p", count: index * 7))],
            messageId: MessageID.random(from: random), timestampMillis: 1_700_000_000_000 + Int64(index),
            anonymousId: "a", userId: nil, deviceToken: nil)
    }

    /// An intake holding `count` events: every third one encoded by its caller, the others structured (the loop
    /// encodes them). Returns the intake and each event's bytes as encoded alone, in order.
    private static func filledIntake(_ count: Int) -> (EventIntake, [Data]) {
        let intake = EventIntake(
            identity: IdentityState(anonymousId: "a", userId: nil, traits: [:], deviceToken: nil, deviceId: "d"),
            persistIdentity: false, capacity: 10_000, overflow: .dropOldest,
            settings: .init(enabled: true, flushAt: 20, flushInterval: .seconds(30)))
        let random = SeededRandomSource(seed: 31)
        var expected: [Data] = []
        for index in 0..<count {
            let event = event(index, random)
            let json = encoder.encode(event)
            expected.append(json)
            if index % 3 == 2 {
                let encoded = EncodedEvent(
                    json: json, messageId: EventMessageID(generated: event.messageId), isAwaited: false)
                #expect(intake.accept(encoded, against: nil) == true)
            } else {
                #expect(intake.accept { _ in event })
            }
        }
        return (intake, expected)
    }

    /// A buffer that took a drain of `count` such events, its first chunk, and each event's bytes encoded alone.
    private static func firstChunk(
        of count: Int, handsOutSlices: Bool
    ) -> (buffer: WriteStageBuffer, chunk: [Data], expected: [Data]) {
        let (intake, expected) = filledIntake(count)
        var buffer = WriteStageBuffer(encoder: encoder, intake: intake, handsOutSlices: handsOutSlices)
        _ = buffer.take()
        let chunk = buffer.nextChunk()
        return (buffer, chunk, expected)
    }

    @Test("Slices of one buffer for the SDK's storages: the same bytes, in order, laid end to end")
    func slicesShareOneBuffer() {
        let (_, chunk, expected) = Self.firstChunk(of: 50, handsOutSlices: true)
        #expect(chunk == expected)
        // The loop-encoded events lie one after the other in one allocation: each starts where the one it
        // encoded before it ended.
        var previousEnd: UnsafeRawPointer?
        for (index, event) in chunk.enumerated() where index % 3 != 2 {
            let (start, end) = event.withUnsafeBytes { raw in
                (UnsafeRawPointer(raw.baseAddress!), UnsafeRawPointer(raw.baseAddress!) + raw.count)
            }
            if let previousEnd { #expect(start == previousEnd, "event \(index)") }
            previousEnd = end
        }
        #expect(chunk.contains { $0.startIndex != 0 })
    }

    @Test("A Data of its own for each event a host's storage gets, indexed from zero")
    func ownDataForHostStorage() {
        let (_, chunk, expected) = Self.firstChunk(of: 50, handsOutSlices: false)
        #expect(chunk == expected)
        #expect(chunk.allSatisfy { $0.startIndex == 0 })
    }

    @Test("A refused suffix of slices is handed again unchanged, and what was stored is counted by its bytes")
    func refusedSuffixKeepsItsSlices() {
        var (buffer, chunk, expected) = Self.firstChunk(of: 30, handsOutSlices: true)
        var report = BinobanStorageWriteReport(storedEvents: 20)
        report.refusedEvents = 10
        let stored = buffer.stored(report)
        #expect(stored.bytes == expected.prefix(20).reduce(0) { $0 + $1.count })
        #expect(buffer.nextChunk() == Array(expected.suffix(10)))
        #expect(Array(chunk.suffix(10)) == buffer.nextChunk())
    }

    @Test("The file and memory storages store slices byte for byte, whatever their offset in the shared buffer")
    func storagesTakeSlices() async throws {
        let events = TestEvents.events(0..<40, bytes: 90)
        var joined = Data()
        var ranges: [Range<Int>] = []
        for event in events {
            ranges.append(joined.count..<(joined.count + event.count))
            joined.append(event)
        }
        let slices = ranges.map { joined[$0] }
        #expect(slices.last?.startIndex == ranges.last?.lowerBound)
        let expectedBody = Data(events.map { Data($0) }.joined(separator: Data(",".utf8)))

        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append(Array(slices.prefix(25)))
            _ = try await storage.append(Array(slices.suffix(15)))
            _ = try await storage.closeOpenBatch()
            let id = try #require(try await storage.finishedBatches(limit: 1).first)
            let batch = try #require(try await storage.read(id))
            #expect(batch.events == expectedBody)
            #expect(batch.eventCount == 40)
            // And from the file itself, after a reopen (the body kept in memory is not read then).
            await storage.close()
            let reopened = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(try await TestEvents.storedIndices(reopened) == Array(0..<40))
        }

        let memory = InMemoryEventStorage()
        _ = try await memory.append(slices)
        _ = try await memory.closeOpenBatch()
        let id = try #require(try await memory.finishedBatches(limit: 1).first)
        let batch = try #require(try await memory.read(id))
        #expect(batch.events == expectedBody)
        #expect(batch.eventCount == 40)
    }
}
