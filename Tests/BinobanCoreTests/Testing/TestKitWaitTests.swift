import Foundation
import Testing

@testable import BinobanCoreTesting

@Suite("Test-kit waits: timeouts and cancellation", .timeLimit(.minutes(10)))
struct TestKitWaitTests {
    static let request = BinobanTransportRequest(url: URL(string: "https://x.io/b")!, headers: [:], body: Data())

    @Test("ScriptedTransport.waitForRequests throws BinobanTestKitTimeout, then forgets the waiter")
    func transportTimeout() async throws {
        let transport = ScriptedTransport()
        _ = try await transport.send(Self.request)
        let error = await #expect(throws: BinobanTestKitTimeout.self) {
            try await transport.waitForRequests(count: 2, timeout: .milliseconds(50))
        }
        #expect(
            error
                == BinobanTestKitTimeout(
                    awaited: "ScriptedTransport.waitForRequests", unit: "requests", seen: 1, expected: 2,
                    timeout: .milliseconds(50)))
        #expect(error?.description == "ScriptedTransport.waitForRequests: 1 of 2 requests after 0.05 seconds")
        #expect(transport.waiterCount == 0)
        // The condition arriving later resumes nothing twice.
        _ = try await transport.send(Self.request)
        #expect(try await transport.waitForRequests(count: 2, timeout: .milliseconds(50)).count == 2)
    }

    @Test("ObservableEventStorage.waitForStoredEvents throws BinobanTestKitTimeout")
    func storageTimeout() async throws {
        let storage = ObservableEventStorage(InMemoryEventStorage())
        let error = await #expect(throws: BinobanTestKitTimeout.self) {
            try await storage.waitForStoredEvents(count: 1, timeout: .milliseconds(50))
        }
        #expect(error?.awaited == "ObservableEventStorage.waitForStoredEvents")
        #expect(error?.seen == 0)
        #expect(error?.expected == 1)
        #expect(storage.waiterCount == 0)
        _ = try await storage.append([Data(#"{"a":1}"#.utf8)], whenFull: .evictOldest)
        try await storage.waitForStoredEvents(count: 1, timeout: .milliseconds(50))
    }

    @Test("ManualClock waits throw BinobanTestKitTimeout: a count, or a predicate with no expected count")
    func clockTimeout() async throws {
        let clock = ManualClock()
        let counted = await #expect(throws: BinobanTestKitTimeout.self) {
            try await clock.waitForSleepers(count: 1, timeout: .milliseconds(50))
        }
        #expect(counted?.awaited == "ManualClock.waitForSleepers")
        #expect(counted?.expected == 1)
        #expect(counted?.seen == 0)
        let predicate = await #expect(throws: BinobanTestKitTimeout.self) {
            try await clock.waitUntilSleepers(timeout: .milliseconds(50)) { $0.contains(.init(offset: .seconds(9))) }
        }
        #expect(predicate?.awaited == "ManualClock.waitUntilSleepers")
        #expect(predicate?.expected == nil)
        #expect(predicate?.description.contains("did not hold") == true)
        #expect(clock.waiterCount == 0)
    }

    @Test("A wait whose task is cancelled while registered throws CancellationError at once")
    func cancelledWhileWaiting() async throws {
        let clock = ManualClock()
        let (evaluated, signal) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            try await clock.waitUntilSleepers {
                signal.yield()  // evaluated under the lock that then registers the waiter
                return $0.count == 3
            }
        }
        var iterator = evaluated.makeAsyncIterator()
        _ = await iterator.next()
        task.cancel()
        // CancellationError, not BinobanTestKitTimeout: the cancellation resumed it, not the 30 s safety net.
        // (No real-time bound is asserted: on a loaded machine the task itself may wait long to be scheduled.)
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.waiterCount == 0)
        // Later changes resume nothing twice.
        let sleeper = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(1))) }
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
    }

    @Test("A wait in an already cancelled task throws CancellationError without registering")
    func cancelledBeforeWaiting() async throws {
        let transport = ScriptedTransport()
        let storage = ObservableEventStorage(InMemoryEventStorage())
        let clock = ManualClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var errors: [any Error] = []
            do { _ = try await transport.waitForRequests(count: 1) } catch { errors.append(error) }
            do { try await storage.waitForStoredEvents(count: 1) } catch { errors.append(error) }
            do { try await clock.waitForSleepers(count: 1) } catch { errors.append(error) }
            return errors
        }
        let errors = await task.value
        #expect(errors.count == 3)
        #expect(errors.allSatisfy { $0 is CancellationError })
        #expect(transport.waiterCount == 0 && storage.waiterCount == 0 && clock.waiterCount == 0)
    }

    @Test("Cancelling a transport or storage wait at any moment throws CancellationError and leaks no waiter")
    func cancelledAtAnyMoment() async throws {
        let transport = ScriptedTransport()
        let storage = ObservableEventStorage(InMemoryEventStorage())
        for _ in 0..<50 {
            let requests = Task { try await transport.waitForRequests(count: 1_000) }
            let events = Task { try await storage.waitForStoredEvents(count: 1_000) }
            requests.cancel()
            events.cancel()
            await #expect(throws: CancellationError.self) { try await requests.value }
            await #expect(throws: CancellationError.self) { try await events.value }
        }
        #expect(transport.waiterCount == 0)
        #expect(storage.waiterCount == 0)
    }

    @Test("Waiters racing their condition and their timeout are resumed exactly once")
    func raceConditionAndTimeout() async throws {
        let transport = ScriptedTransport()
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<100 {
                group.addTask {
                    do {
                        _ = try await transport.waitForRequests(
                            count: 1 + index % 20, timeout: .microseconds(Int64(index % 7) * 300))
                        return true
                    } catch is BinobanTestKitTimeout {
                        return false
                    }
                }
            }
            for _ in 0..<20 { _ = try await transport.send(Self.request) }
            var finished = 0
            for try await _ in group { finished += 1 }
            #expect(finished == 100)
        }
        #expect(transport.waiterCount == 0)
    }
}
