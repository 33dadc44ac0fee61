import BinobanCoreTesting
import Foundation
import Testing

@Suite("Manual clock")
struct ManualClockTests {
    @Test("advance(by:) resumes exactly the due sleepers; wall time moves along")
    func advance() async throws {
        let clock = ManualClock(epochMilliseconds: 0)
        try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
                return 1
            }
            group.addTask {
                try await clock.sleep(until: clock.now.advanced(by: .seconds(5)))
                return 5
            }
            try await clock.waitForSleepers(count: 2)
            clock.advance(by: .seconds(2))
            #expect(try! await group.next() == 1)
            #expect(clock.sleeperDeadlines.count == 1)
            clock.advanceToNextDeadline()
            #expect(try! await group.next() == 5)
        }
        #expect(clock.currentMillisecondsSince1970() == 5000)
    }

    @Test("A cancelled sleeper throws and is removed")
    func cancellation() async throws {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(1))) }
        try await clock.waitForSleepers(count: 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperDeadlines.isEmpty)
    }

    @Test("The scripted transport answers in order, then with the default")
    func scriptedTransport() async throws {
        let transport = ScriptedTransport(script: [500, .retryAfter(3), .networkError])
        let request = BinobanTransportRequest(url: .init(string: "https://x.io/b")!, headers: [:], body: .init())
        #expect(try await transport.send(request).statusCode == 500)
        #expect(try await transport.send(request).value(forHeader: "retry-after") == "3")
        await #expect(throws: ScriptedNetworkError.self) { try await transport.send(request) }
        #expect(try await transport.send(request).statusCode == 200)
        #expect(try await transport.waitForRequests(count: 4).count == 4)
    }
}
