import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// A storage whose next listing waits until the test lets it go: the loop is then inside a turn (listing for a
/// flush), and the test can act before the turn goes on to read and send.
private final class HeldListingStorage: BinobanEventStorage {
    private struct State {
        var holdsNext = false
        /// The test waiting for the listing to be held.
        var awaitingHold: CheckedContinuation<Void, Never>?
        /// The held listing.
        var held: CheckedContinuation<Void, Never>?
    }

    private let base: any BinobanEventStorage
    private let state = LockedValue(State())

    init(_ base: any BinobanEventStorage) {
        self.base = base
    }

    /// The next listing waits for ``releaseListing()``.
    func holdNextListing() { state.withLock { $0.holdsNext = true } }

    /// Returns once a listing is held.
    func waitForHeldListing() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let held = state.withLock { state -> Bool in
                if state.held != nil { return true }
                state.awaitingHold = continuation
                return false
            }
            if held { continuation.resume() }
        }
    }

    /// Lets the held listing go on.
    func releaseListing() {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.held = nil }
            return state.held
        }?.resume()
    }

    func finishedBatches(limit: Int) async throws -> [BinobanBatchID] {
        let holds = state.withLock { state -> Bool in
            defer { state.holdsNext = false }
            return state.holdsNext
        }
        if holds {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                state.withLock { state -> CheckedContinuation<Void, Never>? in
                    state.held = continuation
                    defer { state.awaitingHold = nil }
                    return state.awaitingHold
                }?.resume()
            }
        }
        return try await base.finishedBatches(limit: limit)
    }

    func append(_ events: [Data], whenFull: BinobanStorageFullBehaviour) async throws -> BinobanStorageWriteReport {
        try await base.append(events, whenFull: whenFull)
    }

    func appendReportingProgress(
        _ events: [Data], whenFull: BinobanStorageFullBehaviour
    ) async -> Result<BinobanStorageWriteReport, BinobanStorageAppendFailure> {
        await base.appendReportingProgress(events, whenFull: whenFull)
    }

    func closeOpenBatch() async throws -> BinobanStorageWriteReport { try await base.closeOpenBatch() }

    func read(_ batch: BinobanBatchID) async throws -> BinobanStoredBatch? { try await base.read(batch) }

    func remove(_ batch: BinobanBatchID) async throws { try await base.remove(batch) }
}

@Suite("Shutdown deadline: a shutdown whose deadline has passed starts no request")
struct ShutdownDeadlineTests {
    /// Tracks two events, holds the loop inside a flush's listing, posts a shutdown with `grace` while it is held,
    /// lets the listing go on and returns what the shutdown returned.
    private static func shutdownDuringAFlushListing(
        grace: Duration
    ) async throws -> (harness: PipelineHarness, memory: InMemoryEventStorage, result: BinobanFlushResult) {
        let memory = InMemoryEventStorage(writeKey: "SOURCE")
        let storage = HeldListingStorage(memory)
        let harness = PipelineHarness(memory: memory) { $0.storage = storage }
        let binoban = harness.binoban
        await harness.settle()
        binoban.track(name: "a")
        binoban.track(name: "b")
        await binoban.waitUntilQuiet()

        // The flush's turn stops inside its listing; then the shutdown is posted.
        storage.holdNextListing()
        binoban.flush()
        await storage.waitForHeldListing()
        var shutdown: Task<BinobanFlushResult, Never>?
        await withCheckedContinuation { (posted: CheckedContinuation<Void, Never>) in
            shutdown = Task { await binoban.shutdown(gracePeriod: grace) { posted.resume() } }
        }
        // The turn goes on: the listing finds the batch. Before Decision 0235 it was read and sent before the loop
        // took the stop at the end of the turn, whatever the grace (a request nobody awaited, and a duplicate at
        // the next run if it was delivered).
        storage.releaseListing()
        let result = try #require(await shutdown?.value)
        return (harness, memory, result)
    }

    @Test(
        "A zero-grace shutdown that comes while the loop lists for a flush: the flush sends nothing, the events stay stored",
        .timeLimit(.minutes(10)))
    func zeroGraceDuringATurnSendsNothing() async throws {
        let (harness, memory, result) = try await Self.shutdownDuringAFlushListing(grace: .zero)

        #expect(result.outcome == .interrupted, "\(result)")
        #expect(harness.transport.requests.isEmpty, "\(harness.transport.requests.count) requests")
        let statistics = harness.binoban.statistics
        #expect(statistics.queuedEvents == 2, "\(statistics)")
        #expect(statistics.uploadedEvents == 0, "\(statistics)")
        // Both events stay stored for the next run.
        var stored = 0
        for batch in try await memory.finishedBatches(limit: 10) {
            stored += try await memory.read(batch)?.eventCount ?? 0
        }
        #expect(stored == 2)
    }

    @Test(
        "A shutdown whose grace period is left sends what it can: a listing in progress goes on to its requests",
        .timeLimit(.minutes(10)))
    func graceDuringATurnSends() async throws {
        let (harness, _, result) = try await Self.shutdownDuringAFlushListing(grace: .seconds(5))

        #expect(result.outcome == .completed, "\(result)")
        #expect(try harness.uploadedEvents().map(\.event) == ["a", "b"])
        #expect(harness.binoban.statistics.queuedEvents == 0, "\(harness.binoban.statistics)")
    }
}
