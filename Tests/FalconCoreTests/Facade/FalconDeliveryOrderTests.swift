import FalconCoreTesting
import Testing

/// Every host-facing output of an execution — renderer commands, presenter operations, callbacks, events and
/// delegate calls — arrives on the executor in the machine's action order, and none inside `execute`.
@Suite("Delivery order of host-facing outputs")
struct FalconDeliveryOrderTests {
    static let attributes: JSONValue = ["placement_details": ["layout_id": "L", "view": "ORDER_STATUS"]]

    /// One log for everything the host sees, in the order it sees it.
    final class HostLog: Sendable {
        private let lines = LockedValue([String]())

        func record(_ line: String) { lines.withLock { $0.append(line) } }

        var entries: [String] { lines.withLock { $0 } }
    }

    /// A surface that logs each command and may answer inside `perform`, as a synchronous web view double does.
    final class LoggingSurface: FalconInlineSurface {
        let name: String
        let log: HostLog
        private let answer: @Sendable (FalconRenderRequest) -> Void

        init(_ name: String, _ log: HostLog, answer: @escaping @Sendable (FalconRenderRequest) -> Void = { _ in }) {
            self.name = name
            self.log = log
            self.answer = answer
        }

        func perform(_ request: FalconRenderRequest) {
            switch request.command {
            case .load: log.record("\(name).load")
            case .stop: log.record("\(name).stop")
            case .setContentHeight(let height): log.record("\(name).setContentHeight(\(Int(height)))")
            case .teardown: log.record("\(name).teardown")
            case .openExternally: log.record("\(name).openExternally")
            }
            answer(request)
        }
    }

    /// A presenter that logs each operation and answers inside `perform` with `surface`.
    final class LoggingPresenter: FalconOverlayPresenter {
        let log: HostLog
        let surface: LoggingSurface

        init(_ log: HostLog, surface: LoggingSurface) {
            self.log = log
            self.surface = surface
        }

        func perform(_ request: FalconOverlayRequest) {
            switch request.operation {
            case .present:
                log.record("present")
                request.reporter.overlayPresented(renderer: surface)
            case .dismiss:
                log.record("dismiss")
                request.reporter.overlayDismissed()
            }
        }
    }

    struct Rig {
        let log = HostLog()
        let executor = ManualFalconExecutor()
        let client: FalconClient

        init(overlaySurface: (HostLog) -> LoggingSurface = { LoggingSurface("overlay", $0) }) {
            let log = self.log
            let clock = ManualFalconClock(executor: executor)
            client = FalconClient(
                dependencies: FalconClientDependencies(
                    executor: executor,
                    clock: clock,
                    idSource: SequentialFalconIDSource(),
                    beaconTransport: nil,  // no beacon leaves the test process
                    logHandler: InMemoryLogHandler(),
                    overlayPresenter: LoggingPresenter(log, surface: overlaySurface(log))
                )
            )
            client.initSdk(apiKey: "KEY")
            client.events(layoutId: "L") { log.record("event \($0.name)") }
        }

        /// Executes with every callback logged as `<tag>.<callback>`.
        func execute(_ placement: FalconPlacement, tag: String = "") {
            let log = self.log
            client.execute(
                attributes: FalconDeliveryOrderTests.attributes,
                placement: placement,
                onLoad: { log.record("\(tag)onLoad") },
                onUnload: { log.record("\(tag)onUnload") },
                onError: { log.record("\(tag)onError(\($0))") },
                onShouldShowLoadingIndicator: { log.record("\(tag)show") },
                onShouldHideLoadingIndicator: { log.record("\(tag)hide") }
            )
        }
    }

    static let loadedOnLoad: @Sendable (FalconRenderRequest) -> Void = { request in
        if case .load = request.command {
            request.reporter.bridgeMessage(["type": "event", "name": "loaded", "data": ["height": 80]])
        }
    }

    @Test(arguments: [false, true])
    func showIsTheFirstOutputAndLoadComesAfterIt(overlay: Bool) {
        let rig = Rig()
        let surface = LoggingSurface("inline", rig.log)
        rig.execute(overlay ? .overlay : .inline(surface))
        // execute has returned: nothing was delivered yet, everything waits on the executor.
        #expect(rig.log.entries.isEmpty)
        #expect(rig.executor.pendingCount == 2)
        rig.executor.runAll()
        #expect(rig.log.entries.first == "show")
        #expect(rig.log.entries == (overlay ? ["show", "present", "overlay.load"] : ["show", "inline.load"]))
    }

    @Test func nothingIsDeliveredBeforeExecuteReturns() {
        let rig = Rig()
        let surface = LoggingSurface("inline", rig.log, answer: Self.loadedOnLoad)
        rig.execute(.inline(surface), tag: "1.")
        #expect(rig.log.entries.isEmpty)
        rig.executor.runAll()
        let afterFirst = rig.log.entries.count
        // A second execute supersedes the loaded first one: its teardown and hide wait on the executor too.
        rig.execute(.inline(surface), tag: "2.")
        #expect(rig.log.entries.count == afterFirst)
        // An overlay and a preflight failure (mapping) deliver nothing inside execute either.
        rig.execute(.overlay, tag: "3.")
        rig.client.execute(attributes: [:], placement: .inline(LoggingSurface("other", rig.log)))
        #expect(rig.log.entries.count == afterFirst)
        #expect(rig.executor.pendingCount > 0)
        rig.executor.runAll()
        #expect(rig.log.entries.count > afterFirst)
    }

    @Test func reportsMadeInsidePerformAreHandledInOrder() {
        let rig = Rig()
        let surface = LoggingSurface("inline", rig.log, answer: Self.loadedOnLoad)
        rig.execute(.inline(surface))
        rig.executor.runAll()
        #expect(rig.log.entries == ["show", "inline.load", "hide", "inline.setContentHeight(80)", "onLoad"])
        #expect(rig.client.activeExecutionCount == 1)
    }

    @Test func overlayPresenterAndRendererAnsweringInsidePerformKeepTheMachineOrder() {
        let closeAfterLoad: @Sendable (FalconRenderRequest) -> Void = { request in
            guard case .load = request.command else { return }
            request.reporter.bridgeMessage(["type": "event", "name": "loaded"])
            request.reporter.bridgeMessage(["type": "event", "name": "close"])
        }
        let rig = Rig(overlaySurface: { LoggingSurface("overlay", $0, answer: closeAfterLoad) })
        rig.execute(.overlay)
        rig.executor.runAll()
        #expect(
            rig.log.entries == [
                "show", "present", "overlay.load", "hide", "onLoad", "dismiss", "onUnload",
                "event placementCompleted",
            ])
        #expect(rig.client.activeExecutionCount == 0)
    }

    @Test func aTeardownForASupersededExecutionIsStillDelivered() {
        let rig = Rig()
        let surface = LoggingSurface("inline", rig.log)
        rig.execute(.inline(surface), tag: "1.")
        rig.execute(.inline(surface), tag: "2.")
        // Execution 1 ended before the executor ran any of its outputs; every one is still delivered, in order.
        #expect(rig.client.activeExecutionCount == 1)
        rig.executor.runAll()
        #expect(
            rig.log.entries == ["1.show", "inline.load", "inline.teardown", "1.hide", "2.show", "inline.load"])
    }

    @Test func anOverlayCancelledBeforeItsPresentRanIsPresentedThenDismissed() {
        let rig = Rig()
        let pending = LockedValue<FalconPendingExecution?>(nil)
        let log = rig.log
        let started = rig.client.executeOnNextTurn(
            attributes: Self.attributes,
            placement: .overlay,
            onLoad: { log.record("onLoad") },
            onShouldShowLoadingIndicator: {
                log.record("show")
                pending.withLock { $0 }?.cancel()  // the host unmounts while `present` is still queued
            },
            onShouldHideLoadingIndicator: { log.record("hide") }
        )
        pending.withLock { $0 = started }
        rig.executor.runAll()
        // The presenter got both operations the machine emitted, in order, so it is not left presenting.
        #expect(rig.log.entries == ["show", "present", "dismiss", "hide"])
        #expect(rig.client.activeExecutionCount == 0)
    }
}
