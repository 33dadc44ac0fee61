#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The I/O calls the ``PipelineDriver`` makes for the machine's actions, each turned into the input that tells
/// the machine how it went. No rule lives here: a failure is reported as it happened.
enum PipelineCalls<Instant: InstantProtocol> where Instant.Duration == Duration {
    /// Appends a chunk of encoded events; the write stage needs the report, or the failure and how far it got.
    static func append(
        _ events: [Data], to storage: any BinobanEventStorage, whenFull: BinobanStorageFullBehaviour
    ) async -> Result<BinobanStorageWriteReport, BinobanStorageAppendFailure> {
        await storage.appendReportingProgress(events, whenFull: whenFull)
    }

    /// Closes the open batch, then lists at most `limit` finished batches.
    static func list(_ storage: any BinobanEventStorage, limit: Int) async -> PipelineInput<Instant> {
        do {
            let closed = try await storage.closeOpenBatch()
            return .listed(try await storage.finishedBatches(limit: limit), closed: closed)
        } catch {
            return .listFailed("\(error)")
        }
    }

    /// Reads a batch; the batch comes back beside the input so the driver can hold it for sending. With
    /// `expiringBefore` (milliseconds since 1970, from ``Configuration/maxEventAge``), the events stamped before it
    /// are taken out of the batch the driver holds and named in a ``PipelineInput/readExpiring(_:eventCount:bytes:expired:)``.
    static func read(
        _ storage: any BinobanEventStorage, _ id: BinobanBatchID, expiringBefore cutoffMillis: Int64? = nil
    ) async -> (PipelineInput<Instant>, BinobanStoredBatch?) {
        do {
            guard let batch = try await storage.read(id) else { return (.vanished(id), nil) }
            if let cutoffMillis, let split = ExpiredEvents.split(batch.events, olderThanMillis: cutoffMillis) {
                let fresh = BinobanStoredBatch(id: id, events: split.kept, eventCount: split.keptCount)
                let expired = ExpiredRead(count: split.expiredCount, messageIds: split.expiredIds)
                return (
                    .readExpiring(id, eventCount: split.keptCount, bytes: batch.events.count, expired: expired), fresh
                )
            }
            return (.read(id, eventCount: batch.eventCount, bytes: batch.events.count), batch)
        } catch {
            return (.readFailed(id, "\(error)"), nil)
        }
    }

    /// Closes the open batch, then reads and deletes every finished batch but `excluding`: read first, so that
    /// its events are counted (and, for a batch `readingBackIdsOf` names, whose ids the pipeline does not hold,
    /// named from its body). A fault stops the purge; what it deleted is kept.
    static func purge(
        _ storage: any BinobanEventStorage, excluding: Set<BinobanBatchID>,
        readingBackIdsOf readBack: (BinobanBatchID) -> Bool
    ) async -> PipelineInput<Instant> {
        var report = PurgeReport()
        do {
            report.closed = try await storage.closeOpenBatch()
            for id in try await storage.finishedBatches(limit: Int.max) where !excluding.contains(id) {
                guard let batch = try await storage.read(id) else { continue }
                try await storage.remove(id)
                report.events += batch.eventCount
                report.batches += 1
                report.removed[id] = batch.eventCount
                if readBack(id) { report.readBackIds[id] = BatchMessageIDs.messageIds(in: batch.events) }
            }
        } catch {
            report.failure = "\(error)"
        }
        return .purged(report)
    }

    /// Deletes a batch after its final answer.
    static func remove(_ storage: any BinobanEventStorage, _ id: BinobanBatchID) async -> PipelineInput<Instant> {
        do {
            try await storage.remove(id)
            return .removed(id)
        } catch {
            return .removeFailed(id, "\(error)")
        }
    }

    /// Saves the identity snapshot (the store does its blocking work off the cooperative pool).
    static func save(_ identity: IdentityState, to store: (any BinobanKeyValueStore)?) async -> PipelineInput<Instant> {
        do {
            try await store?.save(identity.snapshot)
            return .identitySaved(failure: nil)
        } catch {
            return .identitySaved(failure: "\(error)")
        }
    }

    /// Sends a batch's request, stamping `sentAt` now; the answer, its `Retry-After` as a delay from now, and a fresh jitter draw go
    /// back (the draw is used only if the machine backs off).
    static func upload(
        _ batch: BinobanStoredBatch, with transport: any BinobanEventTransport, parts: PipelineParts
    ) async -> PipelineInput<Instant> {
        let (id, builder) = (batch.id, parts.requestBuilder)
        let (wallClock, random) = (parts.configuration.wallClock, parts.configuration.randomSource)
        let request = builder.request(for: batch, sentAtMillis: wallClock.currentMillisecondsSince1970())
        do {
            let response = try await transport.send(request)
            let retryAfter = response.value(forHeader: "Retry-After").flatMap { RetryAfter.parse($0) }?
                .delay(nowMillisSince1970: wallClock.currentMillisecondsSince1970())
            return .answered(id, status: response.statusCode, retryAfter: retryAfter, jitter: random.nextUnitInterval())
        } catch {
            return .noAnswer(id, jitter: random.nextUnitInterval(), failure: BinobanTransportFailure(error))
        }
    }
}
