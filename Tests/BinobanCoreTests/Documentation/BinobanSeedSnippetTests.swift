import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// The Binoban seed's Swift snippets, verbatim, compiled in Swift 6 mode and run against an instance on a manual
/// clock and a scripted transport (the `binoban` the snippets name is declared around them). They belong to the
/// serialized "Static controls" suite because one of them turns on the process-wide debug-log switch.
extension StaticControlsTests {
    @Test("The seed's track, identify, flush, reset, anonymousId and debug-log snippets compile and work as pasted")
    func binobanSeedSnippets() async throws {
        let logs = InMemoryLogHandler()
        let harness = PipelineHarness(script: []) { $0.logHandler = logs }
        await harness.settle()
        let binoban = harness.binoban
        defer { Binoban.companion.debugLogsEnabled = false }

        // The seed's text from here, exactly as a host pastes it (not reformatted).
        // swift-format-ignore
        do {
            Binoban.companion.debugLogsEnabled = true   // verbose console logging

            // Record an action
            binoban.track(name: "purchase", properties: ["item": "shoes", "price": "49.99"])

            // Associate the current person with your user ID + traits
            binoban.identify(userId: "user_123", traits: ["email": "test@example.com"])

            binoban.flush()   // send queued events immediately
            binoban.reset()   // clear identity and start a new anonymousId — call on logout

            binoban.anonymousId()   // String — always present
        }
        // Off again at once: while it is on, every instance of the test process is traced (Static controls).
        Binoban.companion.debugLogsEnabled = false

        _ = await binoban.flushAndWait()
        let events = try harness.uploadedEvents()
        #expect(events.map(\.type) == ["track", "identify"])
        #expect(events.first?.event == "purchase")
        #expect(binoban.userId() == nil)
        #expect(!binoban.anonymousId().isEmpty && binoban.anonymousId() != events.first?.anonymousId)
        let lines = logs.records.filter { $0.level == .debug }.map(\.message)
        #expect(lines.contains("track \"purchase\" accepted (2 properties)"))
        #expect(lines.contains("flush requested"))
        _ = await binoban.shutdown(gracePeriod: .seconds(1))
    }
}
