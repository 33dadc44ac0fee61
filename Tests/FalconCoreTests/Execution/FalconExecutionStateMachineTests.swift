@_spi(Tooling) import FalconCore
import Foundation
import Testing

typealias Machine = FalconExecutionStateMachine

/// One row of the transition table at a time, on the pure machine.
@Suite("Execution state machine: transition table (spec §e)")
struct FalconExecutionStateMachineTests {
    static let url = URL(string: "https://pr.falconlabs.us/ui/webview?placement=p&apiKey=K&sessionId=s")!
    static let t0: Duration = .seconds(100)

    /// A machine in Loading (overlay: presented), with the start actions checked.
    static func loading(_ surface: Machine.Surface) -> Machine {
        var machine = Machine(surface: surface)
        let start = machine.handle(.start(.ready(url)), at: t0)
        let load: [Machine.Action] = [
            .renderer(.load(url, navigationID: 1)),
            .armTimer(.loadTimeout, deadline: t0 + .seconds(15), generation: 1),
        ]
        switch surface {
        case .inline:
            #expect(start == [.callback(.showLoadingIndicator)] + load)
        case .overlay:
            #expect(start == [.callback(.showLoadingIndicator), .presentOverlay])
            #expect(machine.state == .presenting)
            #expect(machine.handle(.overlayPresented, at: t0) == load)
        }
        #expect(machine.state == .loading)
        return machine
    }

    /// A machine in Loaded after `loaded(height: 100)`.
    static func loaded(_ surface: Machine.Surface) -> Machine {
        var machine = loading(surface)
        _ = machine.handle(.bridge(.loaded(height: 100)), at: t0 + .seconds(1))
        #expect(machine.state == .loaded)
        return machine
    }

    static let failureTail: [Machine.Action] = [
        .callback(.error(.placementLoadError)), .event(.failure(.placementLoadError)), .finished,
    ]

    // MARK: Preflight

    @Test(arguments: [
        (Machine.Preflight.notInitialized, FalconDiagnosticCode.initNotCalled, FalconError.initNotCalled),
        (.unresolvedAttributes, .attributeMappingFailed, .placementLoadError),
        (.invalidURL, .urlConstructionFailed, .placementLoadError),
        (.overlayAlreadyActive, .noPresenter, .placementLoadError),
    ])
    func preflightFailure(_ preflight: Machine.Preflight, _ code: FalconDiagnosticCode, _ error: FalconError) {
        for surface in [Machine.Surface.inline, .overlay] {
            var machine = Machine(surface: surface)
            let actions = machine.handle(.start(preflight), at: .zero)
            #expect(actions.first == .callback(.showLoadingIndicator))
            guard case .diagnose(code, _) = actions[1] else {
                Issue.record("expected diagnose \(code), got \(actions)")
                continue
            }
            #expect(
                Array(actions.dropFirst(2))
                    == [.callback(.hideLoadingIndicator), .callback(.error(error)), .event(.failure(error)), .finished]
            )
            #expect(machine.state == .failed)
        }
    }

    @Test func overlayWithoutPresenterFailsWithNoPresenter() {
        var machine = Machine(surface: .overlay)
        _ = machine.handle(.start(.ready(Self.url)), at: .zero)
        let actions = machine.handle(.overlayUnavailable, at: .zero)
        guard case .diagnose(.noPresenter, _) = actions.first else {
            Issue.record("\(actions)")
            return
        }
        #expect(Array(actions.dropFirst()) == [.callback(.hideLoadingIndicator)] + Self.failureTail)
    }

    @Test func startTwiceIsIgnored() {
        var machine = Self.loading(.inline)
        #expect(machine.handle(.start(.ready(Self.url)), at: Self.t0).isEmpty)
    }

    // MARK: Loading failures (FAILLOAD)

    static let loadFailures: [(Machine.Input, FalconDiagnosticCode)] = [
        (.navigationResponse(navigationID: 1, isMainFrame: true, status: 500), .webviewHTTPError),
        (.navigationResponse(navigationID: 1, isMainFrame: true, status: 400), .webviewHTTPError),
        (
            .navigationFailed(navigationID: 1, phase: .provisional, isCancelled: false, errorCode: -1009),
            .webviewProvisionalNavigationFailed
        ),
        (
            .navigationFailed(navigationID: 1, phase: .committed, isCancelled: false, errorCode: -1005),
            .webviewNavigationFailed
        ),
        (.bridge(.error), .bridgeReportedError),
        (.timerFired(.loadTimeout, generation: 1), .webviewLoadTimedOut),
        (.rendererTerminated, .webviewNavigationFailed),
    ]

    @Test(arguments: loadFailures)
    func failLoadInline(_ input: Machine.Input, _ code: FalconDiagnosticCode) {
        var machine = Self.loading(.inline)
        let actions = machine.handle(input, at: Self.t0 + .seconds(1))
        guard case .diagnose(code, _) = actions.first else {
            Issue.record("\(actions)")
            return
        }
        var expected: [Machine.Action] = []
        if input != .timerFired(.loadTimeout, generation: 1) { expected.append(.cancelTimer(.loadTimeout)) }
        expected += [.renderer(.stop), .renderer(.teardown), .callback(.hideLoadingIndicator)] + Self.failureTail
        #expect(Array(actions.dropFirst()) == expected)
        #expect(machine.state == .failed)
    }

    @Test(arguments: loadFailures)
    func failLoadOverlayWaitsForDismissal(_ input: Machine.Input, _ code: FalconDiagnosticCode) {
        var machine = Self.loading(.overlay)
        let actions = machine.handle(input, at: Self.t0 + .seconds(1))
        #expect(actions.last == .dismissOverlay)
        #expect(actions.contains(.renderer(.stop)))
        #expect(!actions.contains(.callback(.hideLoadingIndicator)))
        #expect(machine.state == .failing)
        // Closing/Failing ignore everything but the dismissal, including a host teardown.
        #expect(machine.handle(.hostTeardown, at: Self.t0).isEmpty)
        #expect(machine.handle(.bridge(.loaded(height: 1)), at: Self.t0).isEmpty)
        #expect(
            machine.handle(.overlayDismissed(external: false), at: Self.t0) == [.callback(.hideLoadingIndicator)]
                + Self.failureTail)
        #expect(machine.state == .failed)
    }

    @Test(arguments: [
        Machine.Input.navigationResponse(navigationID: 1, isMainFrame: true, status: 399),
        .navigationResponse(navigationID: 1, isMainFrame: true, status: nil),
        .navigationResponse(navigationID: 1, isMainFrame: false, status: 500),
        .navigationResponse(navigationID: 2, isMainFrame: true, status: 500),
        .navigationFailed(navigationID: 1, phase: .provisional, isCancelled: true, errorCode: -999),
        .navigationFailed(navigationID: 1, phase: .committed, isCancelled: true, errorCode: nil),
        .navigationFailed(navigationID: 2, phase: .provisional, isCancelled: false, errorCode: -1),
        .navigationFinished(navigationID: 1),
        .bridge(.height(0)),
        .bridge(.ignored),
        .timerFired(.loadTimeout, generation: 99),
        .timerFired(.dwell, generation: 1),
        .overlayPresented,
        .overlayUnavailable,
        .userTouch,
        .visibility(1),
    ])
    func loadingIgnores(_ input: Machine.Input) {
        var machine = Self.loading(.inline)
        #expect(machine.handle(input, at: Self.t0 + .seconds(1)).isEmpty)
        #expect(machine.state == .loading)
    }

    @Test func cancelledNavigationStillTimesOut() {
        var machine = Self.loading(.inline)
        _ = machine.handle(
            .navigationFailed(navigationID: 1, phase: .provisional, isCancelled: true, errorCode: -999), at: Self.t0)
        _ = machine.handle(.navigationFinished(navigationID: 1), at: Self.t0)
        let actions = machine.handle(.timerFired(.loadTimeout, generation: 1), at: Self.t0 + .seconds(15))
        #expect(
            actions.first
                == .diagnose(.webviewLoadTimedOut, message: "the placement produced no signal within the load timeout"))
    }

    // MARK: Settling

    @Test(arguments: [
        (Machine.Input.bridge(.loaded(height: 240.2)), 241.0 as Double?),
        (.bridge(.loaded(height: nil)), nil),
        (.bridge(.height(80)), 80),
    ])
    func loadSignalSettlesInline(_ input: Machine.Input, _ height: Double?) {
        var machine = Self.loading(.inline)
        var expected: [Machine.Action] = [.cancelTimer(.loadTimeout), .callback(.hideLoadingIndicator)]
        if let height { expected.append(.renderer(.setContentHeight(height))) }
        expected.append(.callback(.load))
        #expect(machine.handle(input, at: Self.t0) == expected)
        #expect(machine.state == .loaded)
    }

    @Test func overlayHeightsAreOnlyALoadSignal() {
        var machine = Self.loading(.overlay)
        // The presenter reported visibility 1.0 before load: the dwell starts with onLoad.
        _ = machine.handle(.visibility(1), at: Self.t0)
        let actions = machine.handle(.bridge(.height(300)), at: Self.t0 + .seconds(2))
        #expect(
            actions == [
                .cancelTimer(.loadTimeout), .callback(.hideLoadingIndicator), .callback(.load),
                .armTimer(.dwell, deadline: Self.t0 + .seconds(3), generation: 2),
            ]
        )
        #expect(machine.handle(.bridge(.height(500)), at: Self.t0).isEmpty)
    }

    @Test(arguments: [Machine.Input.bridge(.noFill), .bridge(.loaded(height: 0))])
    func noFillSettlesWithoutOutcome(_ input: Machine.Input) {
        var inline = Self.loading(.inline)
        #expect(
            inline.handle(input, at: Self.t0) == [
                .cancelTimer(.loadTimeout), .callback(.hideLoadingIndicator), .finished,
            ])
        #expect(inline.state == .noFill)
        var overlay = Self.loading(.overlay)
        #expect(
            overlay.handle(input, at: Self.t0)
                == [.cancelTimer(.loadTimeout), .dismissOverlay, .callback(.hideLoadingIndicator), .finished]
        )
        #expect(overlay.handle(.overlayDismissed(external: false), at: Self.t0).isEmpty)
        #expect(overlay.state == .noFill)
    }

    // MARK: Loaded

    @Test func loadedHeightUpdatesRoundUpAndIgnoreJitter() {
        var machine = Self.loaded(.inline)
        #expect(machine.handle(.bridge(.height(100.6)), at: Self.t0).isEmpty)
        #expect(machine.handle(.bridge(.height(150.2)), at: Self.t0) == [.renderer(.setContentHeight(151))])
        #expect(machine.handle(.bridge(.height(0)), at: Self.t0) == [.renderer(.setContentHeight(0))])
        #expect(machine.state == .loaded)
    }

    @Test(arguments: [
        Machine.Input.bridge(.loaded(height: 50)),
        .bridge(.noFill),
        .navigationFinished(navigationID: 1),
        .navigationResponse(navigationID: 1, isMainFrame: true, status: 500),
        .navigationFailed(navigationID: 1, phase: .committed, isCancelled: false, errorCode: 1),
        .timerFired(.loadTimeout, generation: 1),
        .overlayPresented,
    ])
    func loadedIgnores(_ input: Machine.Input) {
        var machine = Self.loaded(.inline)
        #expect(machine.handle(input, at: Self.t0).isEmpty)
        #expect(machine.state == .loaded)
    }

    @Test(arguments: [
        (Machine.Input.bridge(.error), FalconDiagnosticCode.bridgeReportedError),
        (.rendererTerminated, .webviewNavigationFailed),
    ])
    func failLateInlineCollapsesWithoutHideOrUnload(_ input: Machine.Input, _ code: FalconDiagnosticCode) {
        var machine = Self.loaded(.inline)
        let actions = machine.handle(input, at: Self.t0)
        guard case .diagnose(code, _) = actions.first else {
            Issue.record("\(actions)")
            return
        }
        #expect(
            Array(actions.dropFirst())
                == [.renderer(.stop), .renderer(.setContentHeight(0)), .renderer(.teardown)] + Self.failureTail
        )
    }

    @Test func failLateOverlayDeliversErrorAfterDismissal() {
        var machine = Self.loaded(.overlay)
        let actions = machine.handle(.bridge(.error), at: Self.t0)
        #expect(Array(actions.dropFirst()) == [.renderer(.stop), .dismissOverlay])
        #expect(machine.state == .failing)
        #expect(machine.handle(.overlayDismissed(external: false), at: Self.t0) == Self.failureTail)
    }

    // MARK: Close and dismissal

    @Test func closeInlineFromLoadedAndLoading() {
        var loaded = Self.loaded(.inline)
        #expect(
            loaded.handle(.bridge(.close), at: Self.t0)
                == [
                    .renderer(.setContentHeight(0)), .renderer(.teardown), .callback(.unload), .event(.completed),
                    .finished,
                ]
        )
        #expect(loaded.state == .unloaded)
        var loading = Self.loading(.inline)
        #expect(
            loading.handle(.bridge(.close), at: Self.t0)
                == [
                    .cancelTimer(.loadTimeout), .callback(.hideLoadingIndicator), .renderer(.setContentHeight(0)),
                    .renderer(.teardown), .callback(.unload), .event(.completed), .finished,
                ]
        )
    }

    @Test func closeOverlayCompletesAfterDismissal() {
        var machine = Self.loaded(.overlay)
        #expect(machine.handle(.bridge(.close), at: Self.t0) == [.dismissOverlay])
        #expect(machine.state == .closing)
        #expect(machine.handle(.bridge(.error), at: Self.t0).isEmpty)
        #expect(machine.handle(.superseded, at: Self.t0).isEmpty)
        #expect(
            machine.handle(.overlayDismissed(external: true), at: Self.t0) == [
                .callback(.unload), .event(.completed), .finished,
            ])
        #expect(machine.state == .unloaded)
    }

    @Test func externalDismissalUnloadsWithoutCompleted() {
        var loaded = Self.loaded(.overlay)
        #expect(loaded.handle(.overlayDismissed(external: true), at: Self.t0) == [.callback(.unload), .finished])
        var loading = Self.loading(.overlay)
        #expect(
            loading.handle(.overlayDismissed(external: true), at: Self.t0)
                == [.cancelTimer(.loadTimeout), .callback(.hideLoadingIndicator), .callback(.unload), .finished]
        )
        var inline = Self.loaded(.inline)
        #expect(inline.handle(.overlayDismissed(external: true), at: Self.t0).isEmpty)
    }

    // MARK: Cancellation

    @Test func aReleasedSurfaceIsATeardownWithAWarningBeforeThePlacementSettled() {
        var idle = Machine(surface: .inline)
        #expect(idle.handle(.surfaceReleased, at: .zero) == [.warnSurfaceReleasedEarly, .finished])
        var loading = Self.loading(.inline)
        #expect(
            loading.handle(.surfaceReleased, at: Self.t0) == [
                .warnSurfaceReleasedEarly, .cancelTimer(.loadTimeout), .renderer(.teardown),
                .callback(.hideLoadingIndicator), .finished,
            ])
        #expect(loading.state == .cancelled)
        // A loaded placement whose surface is released was removed from the UI: onUnload, not completed.
        var loaded = Self.loaded(.inline)
        #expect(loaded.handle(.surfaceReleased, at: Self.t0) == [.renderer(.teardown), .callback(.unload), .finished])
        #expect(loaded.state == .unloaded)
    }

    @Test(arguments: [Machine.Input.hostTeardown, .superseded])
    func cancellationBeforeTheScreenIsSilentExceptThePendingHide(_ input: Machine.Input) {
        var loading = Self.loading(.inline)
        #expect(
            loading.handle(input, at: Self.t0)
                == [.cancelTimer(.loadTimeout), .renderer(.teardown), .callback(.hideLoadingIndicator), .finished]
        )
        #expect(loading.state == .cancelled)
        var pending = Machine(surface: .inline)
        #expect(pending.handle(input, at: .zero) == [.finished])
        #expect(pending.handle(.start(.ready(Self.url)), at: .zero).isEmpty)
    }

    /// The seed: `onUnload` is "called when the placement is removed from the UI". A placement on screen that the
    /// host tears down (or supersedes) is removed from it; nobody engaged with it, so no `completed`.
    @Test(arguments: [Machine.Input.hostTeardown, .superseded, .surfaceReleased])
    func removingAPlacementFromTheScreenUnloadsIt(_ input: Machine.Input) {
        var inline = Self.loaded(.inline)
        #expect(inline.handle(input, at: Self.t0) == [.renderer(.teardown), .callback(.unload), .finished])
        #expect(inline.state == .unloaded)
        #expect(inline.handle(.bridge(.close), at: Self.t0).isEmpty)
        // Released before it settled: the machine warns first (the overlay's web view is the SDK's own).
        var early: [Machine.Action] = []
        if case .surfaceReleased = input { early = [.warnSurfaceReleasedEarly] }
        var overlayLoading = Self.loading(.overlay)
        #expect(
            overlayLoading.handle(input, at: Self.t0) == early + [
                .cancelTimer(.loadTimeout), .dismissOverlay, .callback(.hideLoadingIndicator), .callback(.unload),
                .finished,
            ])
        #expect(overlayLoading.state == .unloaded)
        var overlayLoaded = Self.loaded(.overlay)
        #expect(overlayLoaded.handle(input, at: Self.t0) == [.dismissOverlay, .callback(.unload), .finished])
        #expect(overlayLoaded.handle(.overlayDismissed(external: false), at: Self.t0).isEmpty)
    }

    @Test func presentingOverlayCanBeDismissedOrTornDown() {
        var dismissed = Machine(surface: .overlay)
        _ = dismissed.handle(.start(.ready(Self.url)), at: .zero)
        #expect(dismissed.state == .presenting)
        #expect(dismissed.handle(.bridge(.loaded(height: 10)), at: .zero).isEmpty)
        #expect(
            dismissed.handle(.overlayDismissed(external: true), at: .zero)
                == [.callback(.hideLoadingIndicator), .callback(.unload), .finished]
        )
        var tornDown = Machine(surface: .overlay)
        _ = tornDown.handle(.start(.ready(Self.url)), at: .zero)
        #expect(
            tornDown.handle(.hostTeardown, at: .zero) == [.dismissOverlay, .callback(.hideLoadingIndicator), .finished])
        #expect(tornDown.handle(.overlayPresented, at: .zero).isEmpty)
        #expect(tornDown.state == .cancelled)
    }

    // MARK: Interactive

    @Test func interactiveAfterOneSecondAboveHalfOnce() {
        var machine = Self.loaded(.inline)
        let t = Self.t0 + .seconds(2)
        #expect(machine.handle(.visibility(0.5), at: t).isEmpty)
        #expect(
            machine.handle(.visibility(0.51), at: t) == [.armTimer(.dwell, deadline: t + .seconds(1), generation: 2)])
        #expect(machine.handle(.visibility(0.9), at: t).isEmpty)
        #expect(machine.handle(.timerFired(.dwell, generation: 2), at: t + .seconds(1)) == [.event(.interactive)])
        #expect(machine.interactiveFired)
        #expect(machine.handle(.visibility(1), at: t + .seconds(3)).isEmpty)
    }

    @Test func dropAtOrBelowHalfCancelsAndRestartsTheDwell() {
        var machine = Self.loaded(.inline)
        _ = machine.handle(.visibility(0.8), at: Self.t0)
        #expect(machine.handle(.visibility(0.5), at: Self.t0 + .milliseconds(500)) == [.cancelTimer(.dwell)])
        #expect(machine.handle(.timerFired(.dwell, generation: 2), at: Self.t0 + .seconds(1)).isEmpty)
        #expect(machine.handle(.visibility(.nan), at: Self.t0).isEmpty)
        #expect(
            machine.handle(.visibility(7), at: Self.t0 + .seconds(2))
                == [.armTimer(.dwell, deadline: Self.t0 + .seconds(3), generation: 3)]
        )
        #expect(machine.handle(.timerFired(.dwell, generation: 3), at: Self.t0 + .seconds(3)) == [.event(.interactive)])
    }

    @Test func noInteractiveBeforeLoad() {
        var machine = Self.loading(.inline)
        #expect(machine.handle(.visibility(1), at: Self.t0).isEmpty)
        #expect(machine.handle(.timerFired(.dwell, generation: 2), at: Self.t0 + .seconds(2)).isEmpty)
    }

    // MARK: Clicks and terminal states

    @Test func clickOpensExternallyOnlyAfterATouch() {
        let target = URL(string: "https://shop.example/offer")!
        var machine = Self.loaded(.inline)
        #expect(machine.handle(.bridge(.click(target)), at: Self.t0).isEmpty)
        _ = machine.handle(.userTouch, at: Self.t0 + .seconds(5))
        #expect(
            machine.handle(.bridge(.click(target)), at: Self.t0 + .milliseconds(5_400)) == [
                .renderer(.openExternally(target))
            ]
        )
        #expect(machine.handle(.bridge(.click(target)), at: Self.t0 + .seconds(7)).isEmpty)
        #expect(machine.state == .loaded)
    }

    @Test func terminalStatesIgnoreEverything() {
        let inputs: [Machine.Input] = [
            .bridge(.loaded(height: 1)), .bridge(.close), .bridge(.error), .rendererTerminated, .hostTeardown,
            .superseded, .overlayDismissed(external: true), .timerFired(.loadTimeout, generation: 1),
            .timerFired(.dwell, generation: 2), .visibility(1), .start(.ready(Self.url)), .overlayPresented,
        ]
        var machines: [Machine] = []
        var failed = Self.loading(.inline)
        _ = failed.handle(.bridge(.error), at: Self.t0)
        machines.append(failed)
        var unloaded = Self.loaded(.inline)
        _ = unloaded.handle(.bridge(.close), at: Self.t0)
        machines.append(unloaded)
        var noFill = Self.loading(.overlay)
        _ = noFill.handle(.bridge(.noFill), at: Self.t0)
        machines.append(noFill)
        var cancelled = Self.loaded(.overlay)
        _ = cancelled.handle(.hostTeardown, at: Self.t0)
        machines.append(cancelled)
        for var machine in machines {
            #expect(machine.state.isTerminal)
            for input in inputs { #expect(machine.handle(input, at: Self.t0 + .seconds(60)).isEmpty) }
        }
    }
}
