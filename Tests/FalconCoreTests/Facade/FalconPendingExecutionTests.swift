import FalconCoreTesting
import Testing

@Suite("Execution on the next executor turn (SwiftUI wrapper)")
struct FalconPendingExecutionTests {
    static func rig() -> FalconTestRig {
        let rig = FalconTestRig()
        rig.client.initSdk(apiKey: "KEY")
        return rig
    }

    static let attributes: JSONValue = ["placement_details": ["view": "ORDER_STATUS"]]

    @Test func startsOnTheNextTurnOnly() {
        let rig = Self.rig()
        let surface = rig.renderer([.init(at: .milliseconds(10), .loaded(height: 40))])
        let callbacks = rig.timeline.callbacks()
        let pending = rig.client.executeOnNextTurn(
            attributes: Self.attributes,
            placement: .inline(surface),
            onLoad: callbacks.onLoad,
            onShouldShowLoadingIndicator: callbacks.onShouldShowLoadingIndicator,
            onShouldHideLoadingIndicator: callbacks.onShouldHideLoadingIndicator
        )
        #expect(!pending.hasStarted)
        #expect(surface.commands.isEmpty)
        #expect(rig.client.activeExecutionCount == 0)
        rig.clock.advance(by: .seconds(1))
        #expect(pending.hasStarted)
        #expect(
            rig.timeline.entries
                == [
                    .callback("onShouldShowLoadingIndicator"), .callback("onShouldHideLoadingIndicator"),
                    .callback("onLoad"),
                ]
        )
    }

    @Test func cancelBeforeTheTurnDoesNothingAtAll() async {
        let rig = Self.rig()
        let surface = rig.renderer([])
        let callbacks = rig.timeline.callbacks()
        let pending = rig.client.executeOnNextTurn(
            attributes: [:],
            placement: .inline(surface),
            onShouldShowLoadingIndicator: callbacks.onShouldShowLoadingIndicator
        )
        pending.cancel()
        rig.clock.advance(by: .seconds(30))
        await rig.client.waitForPendingBeacons()
        #expect(rig.timeline.entries.isEmpty)
        #expect(surface.commands.isEmpty)
        #expect(!pending.hasStarted)
    }

    @Test func cancelAfterTheTurnIsAHostTeardown() {
        let rig = Self.rig()
        let surface = rig.renderer([])
        let callbacks = rig.timeline.callbacks()
        let pending = rig.client.executeOnNextTurn(
            attributes: Self.attributes,
            placement: .inline(surface),
            onError: callbacks.onError,
            onShouldShowLoadingIndicator: callbacks.onShouldShowLoadingIndicator,
            onShouldHideLoadingIndicator: callbacks.onShouldHideLoadingIndicator
        )
        rig.executor.runAll()
        pending.cancel()
        rig.clock.advance(by: .seconds(30))
        #expect(
            rig.timeline.entries == [
                .callback("onShouldShowLoadingIndicator"), .callback("onShouldHideLoadingIndicator"),
            ]
        )
        #expect(surface.commands.last == .teardown)
        #expect(rig.client.activeExecutionCount == 0)
    }
}
