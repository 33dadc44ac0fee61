import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

@Suite("Concurrency")
struct ConcurrencyTests {
    private struct Minimal: Decodable {
        struct Event: Decodable {
            var properties: Properties
        }

        struct Properties: Decodable {
            var p: Int
            var i: Int
        }

        var batch: [Event]
    }

    @Test("16 tasks × 10 000 track() calls: every event delivered exactly once, in order per producer")
    func sixteenProducers() async throws {
        let producers = 16
        let perProducer = 10_000
        let limits = BinobanStorageLimits(maxFinishedBatches: 100_000, maxTotalBytes: .max)
        let harness = PipelineHarness(limits: limits) {
            $0.writeStageCapacity = producers * perProducer
            $0.flushAt = 1_000_000
            // One request at a time, so arrival order is storage order. With more, batches may arrive in any
            // order (each keeps its own; Decision 0207), which this test would count as out of order.
            $0.maxConcurrentUploads = 1
        }
        await harness.settle()
        let binoban = harness.binoban
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<producers {
                group.addTask {
                    for index in 0..<perProducer {
                        binoban.track(name: "c", properties: ["p": .int(producer), "i": .int(index)])
                    }
                }
            }
        }
        let result = await binoban.flushAndWait()
        #expect(result.outcome == .completed)
        #expect(result.uploadedEvents == producers * perProducer)
        #expect(!harness.reports.contains(.writeStageOverflow))

        var next = [Int](repeating: 0, count: producers)
        var outOfOrder = 0
        for request in harness.transport.requests {
            for event in try JSONDecoder().decode(Minimal.self, from: request.body).batch {
                if event.properties.i != next[event.properties.p] { outOfOrder += 1 }
                next[event.properties.p] = event.properties.i + 1
            }
        }
        #expect(outOfOrder == 0)
        #expect(next == [Int](repeating: perProducer, count: producers))
        _ = await binoban.shutdown(gracePeriod: .seconds(1))
    }
}
