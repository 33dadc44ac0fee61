import FalconCoreTesting
import Foundation
import Testing

/// End-to-end behaviour of a client driven by the test kit: manual clock and executor, scripted renderer.
@Suite("FalconClient driver")
struct FalconClientTests {
    static let layout = "APP_NATIVE_ESSENTIAL_0.1"
    static let attributes: JSONValue = [
        "user_details": ["email": "jane+test@example.com", "first_name": "Jane", "last_name": "Smith"],
        "placement_details": ["layout_id": .string(layout), "view": "ORDER_STATUS"],
    ]
    static let show = FalconTimeline.Entry.callback("onShouldShowLoadingIndicator")
    static let hide = FalconTimeline.Entry.callback("onShouldHideLoadingIndicator")
    static let loadError = FalconTimeline.Entry.callback("onError(placementLoadError)")
    static let failureEvent = FalconTimeline.Entry.event("placementFailure(placementLoadError)")

    static func rig(loadTimeout: Duration = .seconds(15), presenter: (any FalconOverlayPresenter)? = nil)
        -> FalconTestRig
    {
        let rig = FalconTestRig(loadTimeout: loadTimeout, presenter: presenter)
        rig.client.initSdk(apiKey: "SECRET-KEY")
        rig.client.events(layoutId: layout, handler: rig.timeline.eventHandler())
        return rig
    }

    @Test func inlineLoadDrivesHeightAndFiresInteractiveOnce() throws {
        let rig = Self.rig()
        let renderer = rig.renderer([
            .init(at: .milliseconds(50), .respond(status: 200)),
            .init(at: .milliseconds(60), .finish),
            .init(at: .milliseconds(100), .loaded(height: 119.5)),
            .init(at: .milliseconds(200), .visibility(0.8)),
            .init(at: .milliseconds(1_300), .visibility(1)),
        ])
        rig.execute(Self.attributes, placement: .inline(renderer))
        // Nothing is delivered from inside execute: the show callback and the load wait on the executor.
        #expect(rig.timeline.entries.isEmpty && renderer.commands.isEmpty)
        #expect(rig.executor.pendingCount == 2)
        rig.clock.advance(by: .seconds(3))
        #expect(rig.timeline.entries == [Self.show, Self.hide, .callback("onLoad"), .event("placementInteractive")])
        let interactiveTime = rig.timeline.timedEntries.last?.time
        #expect(interactiveTime == .milliseconds(1_200))
        let commands = renderer.commands
        #expect(commands.count == 2)
        guard case .load(let url, navigationID: 1) = commands.first else {
            Issue.record("\(commands)")
            return
        }
        #expect(
            url.absoluteString
                == "https://pr.falconlabs.us/ui/webview?placement=ORDER_STATUS&apiKey=SECRET-KEY&sessionId=session-1"
                + "&at.email=jane%2Btest%40example.com&at.firstname=Jane&at.lastname=Smith"
        )
        #expect(commands.last == .setContentHeight(120))
        #expect(rig.clock.pendingTimerCount == 0)
        #expect(rig.client.activeExecutionCount == 1)
    }

    @Test func timeoutFailsAfterExactlyTheLoadTimeout() async throws {
        let rig = Self.rig()
        let renderer = rig.renderer([
            .init(at: .milliseconds(10), .respond(status: 200)), .init(at: .milliseconds(20), .finish),
        ])
        rig.execute(Self.attributes, placement: .inline(renderer))
        rig.clock.advance(by: .milliseconds(14_999))
        #expect(rig.timeline.entries == [Self.show])
        rig.clock.advance(by: .milliseconds(1))
        await rig.client.waitForPendingBeacons()
        #expect(
            rig.timeline.entries(excludingBeacons: true)
                == [Self.show, .diagnostic(.webviewLoadTimedOut), Self.hide, Self.loadError, Self.failureEvent]
        )
        #expect(rig.timeline.beaconCodes == [.webviewLoadTimedOut])
        #expect(renderer.commands.suffix(2) == [.stop, .teardown])
        #expect(rig.client.activeExecutionCount == 0)
        #expect(rig.logs.records.filter { $0.level == .error }.map(\.falconDiagnosticCode) == [.webviewLoadTimedOut])
    }

    @Test func httpErrorSendsOneBeaconWithTheSixKeys() async throws {
        let rig = Self.rig()
        let renderer = rig.renderer([.init(at: .milliseconds(250), .respond(status: 500))])
        rig.execute(Self.attributes, placement: .inline(renderer))
        rig.clock.advance(by: .seconds(20))
        await rig.client.waitForPendingBeacons()
        let request = try #require(rig.timeline.beaconRequests.first)
        #expect(rig.timeline.beaconRequests.count == 1)
        #expect(request.url == FalconConfig.defaultDiagnosticsURL)
        #expect(request.method == "POST")
        #expect(request.headers == ["Content-Type": "application/json"])
        #expect(
            String(decoding: request.body, as: UTF8.self)
                == #"{"code":"webviewHTTPError","layoutId":"APP_NATIVE_ESSENTIAL_0.1","placement":"ORDER_STATUS","platform":"test","sdkv":"1.3.1","ts":1783512000250}"#
        )
    }

    @Test func initNotCalledNeverReachesTheNetwork() async {
        let rig = FalconTestRig()
        rig.client.events(layoutId: Self.layout, handler: rig.timeline.eventHandler())
        rig.execute(Self.attributes, placement: .inline(rig.renderer([])))
        rig.executor.runAll()
        await rig.client.waitForPendingBeacons()
        #expect(
            rig.timeline.entries
                == [
                    Self.show, .diagnostic(.initNotCalled), Self.hide, .callback("onError(initNotCalled)"),
                    .event("placementFailure(initNotCalled)"),
                ]
        )
        #expect(rig.timeline.beaconRequests.isEmpty)
        #expect(rig.logs.records.contains { $0.falconDiagnosticCode == .initNotCalled && $0.level == .error })
    }

    @Test func initSdkLaterDoesNotRescueAnEarlierExecute() {
        let rig = FalconTestRig()
        let renderer = rig.renderer([.init(at: .milliseconds(1), .loaded(height: 10))])
        rig.execute(Self.attributes, placement: .inline(renderer))
        rig.client.initSdk(apiKey: "KEY")
        rig.clock.advance(by: .seconds(1))
        #expect(rig.timeline.entries.last == .callback("onError(initNotCalled)"))
        #expect(renderer.commands.isEmpty)
    }

    @Test func mappingAndURLFailuresArePreflightFailures() async {
        let rig = Self.rig()
        rig.execute(["placement_details": ["layout_id": .string(Self.layout)]], placement: .inline(rig.renderer([])))
        rig.client.initSdk(apiKey: "  ")
        rig.execute(Self.attributes, placement: .inline(rig.renderer([])))
        rig.executor.runAll()
        await rig.client.waitForPendingBeacons()
        #expect(
            rig.timeline.entries(excludingBeacons: true)
                == [
                    Self.show, .diagnostic(.attributeMappingFailed), Self.hide, Self.loadError, Self.failureEvent,
                    Self.show, .diagnostic(.urlConstructionFailed), Self.hide, Self.loadError, Self.failureEvent,
                ]
        )
        #expect(Set(rig.timeline.beaconCodes) == [.attributeMappingFailed, .urlConstructionFailed])
    }

    @Test func beaconSwitchesAndEndpoint() async throws {
        let custom = URL(string: "https://telemetry.example/falcon")!
        let cases: [(FalconConfig, URL?)] = [
            (FalconConfig(diagnosticBeaconsEnabled: false), nil),
            (FalconConfig(diagnosticsURL: custom), custom),
            (FalconConfig(diagnosticsURL: URL(string: "ftp://telemetry.example/x")!), nil),
            (FalconConfig(diagnosticsURL: URL(string: "mailto:ops@example.com")!), nil),
            (FalconConfig(), FalconConfig.defaultDiagnosticsURL),
        ]
        for (config, expected) in cases {
            let rig = FalconTestRig()
            rig.client.initSdk(apiKey: "KEY", config: config)
            rig.execute([:], placement: .overlay)
            rig.executor.runAll()
            await rig.client.waitForPendingBeacons()
            #expect(rig.timeline.beaconRequests.map(\.url) == (expected.map { [$0] } ?? []))
            #expect(rig.timeline.entries(excludingBeacons: true).contains(.diagnostic(.attributeMappingFailed)))
        }
    }

    @Test func withoutATransportTheFirstBeaconWarnsOnceWithTheFixThenDebugLines() async {
        let logs = InMemoryLogHandler()
        let executor = ManualFalconExecutor()
        let client = FalconClient(
            dependencies: FalconClientDependencies(
                executor: executor, clock: ManualFalconClock(), beaconTransport: nil, logHandler: logs)
        )
        client.initSdk(apiKey: "KEY")
        client.execute(attributes: [:], placement: .overlay)
        client.execute(attributes: [:], placement: .overlay)
        executor.runAll()
        await client.waitForPendingBeacons()
        #expect(logs.records.map(\.level) == [.error, .warning, .error, .debug])
        let warning = logs.records[1]
        #expect(warning.falconDiagnosticCode == .attributeMappingFailed)
        #if os(Linux)
        let fix = "Falcon.shared = FalconClient(dependencies: .init(beaconTransport: CurlBeaconTransport()))"
        #else
        let fix = "Falcon.shared = FalconClient(dependencies: .init(beaconTransport: URLSessionBeaconTransport()))"
        #endif
        #expect(warning.message.contains(fix))
        #expect(logs.records.last?.message == "beacon not sent: no beacon transport installed")
    }

    @Test func withBeaconsDisabledAMissingTransportIsNotMentioned() async {
        let logs = InMemoryLogHandler()
        let executor = ManualFalconExecutor()
        let client = FalconClient(
            dependencies: FalconClientDependencies(
                executor: executor, clock: ManualFalconClock(), beaconTransport: nil, logHandler: logs)
        )
        client.initSdk(apiKey: "KEY", config: FalconConfig(diagnosticBeaconsEnabled: false))
        client.execute(attributes: [:], placement: .overlay)
        executor.runAll()
        #expect(logs.records.map(\.level) == [.error])
    }

    @Test func failingTransportsChangeNothingTheHostSees() async {
        var timelines: [[FalconTimeline.Entry]] = []
        for outcome in [RecordingBeaconTransport.Outcome.status(204), .status(500), .networkFailure] {
            let transport = RecordingBeaconTransport(outcome: outcome)
            let rig = FalconTestRig(beaconTransport: transport)
            rig.client.initSdk(apiKey: "KEY")
            rig.execute(Self.attributes, placement: .inline(rig.renderer([.init(at: .zero, .respond(status: 404))])))
            rig.clock.advance(by: .seconds(1))
            await rig.client.waitForPendingBeacons()
            #expect(transport.requests.count == 1)
            timelines.append(rig.timeline.entries)
        }
        #expect(Set(timelines.map { $0.map(\.description) }).count == 1)
    }

    // MARK: Events handlers

    @Test func eventsHandlerIsOverwrittenTrimmedAndRemovable() {
        let rig = Self.rig()
        let other = FalconTimeline()
        rig.client.events(layoutId: "  \(Self.layout)\n", handler: other.eventHandler())
        rig.client.events(layoutId: "   ", handler: rig.timeline.eventHandler())
        rig.execute(Self.attributes, placement: .inline(rig.renderer([.init(at: .zero, .close)])))
        rig.clock.advance(by: .seconds(1))
        #expect(other.entries == [.event("placementCompleted")])
        #expect(!rig.timeline.entries.contains(.event("placementCompleted")))

        // Removal takes effect for events already queued: lookup happens at delivery.
        let failing = rig.renderer([])
        rig.execute(Self.attributes, placement: .inline(failing))
        rig.executor.runAll()  // delivers show and load
        failing.play(.error())
        #expect(rig.executor.pendingCount > 0)
        rig.client.removeEventsHandler(layoutId: Self.layout)
        rig.executor.runAll()
        #expect(other.entries == [.event("placementCompleted")])
        #expect(rig.timeline.entries.suffix(1) == [Self.loadError])
    }

    @Test func executionWithoutLayoutIdEmitsNoEvents() {
        let rig = Self.rig()
        rig.execute(["placement_details": ["view": "V"]], placement: .inline(rig.renderer([.init(at: .zero, .close)])))
        rig.clock.advance(by: .seconds(1))
        #expect(rig.timeline.entries == [Self.show, Self.hide, .callback("onUnload")])
    }

    @Test func closuresAreReleasedWhenTheExecutionEnds() {
        final class Witness: Sendable {}
        let rig = Self.rig()
        weak var weakWitness: Witness?
        do {
            let witness = Witness()
            weakWitness = witness
            rig.client.execute(
                attributes: Self.attributes,
                placement: .inline(rig.renderer([.init(at: .milliseconds(5), .noFill)])),
                onLoad: { _ = witness },
                onError: { _ in _ = witness }
            )
        }
        #expect(weakWitness != nil)
        #expect(rig.client.activeExecutionCount == 1)
        rig.clock.advance(by: .seconds(1))
        #expect(rig.client.activeExecutionCount == 0)
        #expect(weakWitness == nil)
    }

    // MARK: Surfaces and overlays

    @Test func newExecuteOnTheSameSurfaceSupersedesALoadingPlacementSilently() {
        let rig = Self.rig()
        let surface = rig.renderer([.init(at: .seconds(1), .loaded(height: 50))])
        rig.execute(Self.attributes, placement: .inline(surface))
        rig.clock.advance(by: .milliseconds(500))
        rig.execute(Self.attributes, placement: .inline(surface))
        rig.clock.advance(by: .seconds(2))
        #expect(rig.timeline.entries == [Self.show, Self.hide, Self.show, Self.hide, .callback("onLoad")])
        #expect(surface.commands.filter { $0 == .teardown }.count == 1)
        #expect(rig.client.activeExecutionCount == 1)
    }

    /// The seed: `onUnload` is "called when the placement is removed from the UI" — the host removing a loaded
    /// placement is such a removal (Docs/Decisions/0111). Nobody engaged with it: no `placementCompleted`.
    @Test func hostTeardownOfALoadedPlacementCallsOnUnload() {
        let rig = Self.rig()
        let surface = rig.renderer([
            .init(at: .milliseconds(10), .loaded(height: 50)), .init(at: .seconds(1), .hostTeardown),
        ])
        rig.execute(Self.attributes, placement: .inline(surface))
        rig.clock.advance(by: .seconds(30))
        #expect(rig.timeline.entries == [Self.show, Self.hide, .callback("onLoad"), .callback("onUnload")])
        #expect(surface.commands.last == .teardown)
        #expect(rig.client.activeExecutionCount == 0)
        surface.play(.close)
        rig.executor.runAll()
        #expect(rig.timeline.entries.count == 4)
    }

    @Test func hostTeardownBeforeTheLoadIsSilentExceptThePendingHide() {
        let rig = Self.rig()
        let surface = rig.renderer([.init(at: .seconds(1), .hostTeardown), .init(at: .seconds(2), .loaded(height: 5))])
        rig.execute(Self.attributes, placement: .inline(surface))
        rig.clock.advance(by: .seconds(30))
        #expect(rig.timeline.entries == [Self.show, Self.hide])
        #expect(rig.client.activeExecutionCount == 0)
    }

    @Test func aNewExecuteOverALoadedPlacementUnloadsTheOldOneFirst() {
        let rig = Self.rig()
        let surface = rig.renderer([.init(at: .milliseconds(10), .loaded(height: 50))])
        rig.execute(Self.attributes, placement: .inline(surface))
        rig.clock.advance(by: .seconds(1))
        rig.execute(Self.attributes, placement: .inline(surface))
        rig.executor.runAll()
        #expect(
            Array(rig.timeline.entries.prefix(5)) == [
                Self.show, Self.hide, .callback("onLoad"), .callback("onUnload"), Self.show,
            ])
        #expect(rig.timeline.entries.filter { $0 == .callback("onUnload") }.count == 1)
        #expect(rig.client.activeExecutionCount == 1)
    }

    @Test func theSDKDoesNotKeepAReleasedSurfaceAlive() {
        let rig = Self.rig()
        weak var weakSurface: ScriptedRenderer?
        do {
            let surface = rig.renderer([.init(at: .milliseconds(10), .loaded(height: 50))])
            weakSurface = surface
            rig.execute(Self.attributes, placement: .inline(surface))
            rig.clock.advance(by: .seconds(1))
        }
        #expect(weakSurface == nil)
        #expect(rig.timeline.entries == [Self.show, Self.hide, .callback("onLoad")])
        #expect(rig.client.activeExecutionCount == 1)
        #expect(rig.logs.records.filter { $0.level == .warning }.isEmpty)  // released after it settled: no warning

        // A released surface met while loading counts as a host teardown: no onError, no diagnostic, closures
        // released; but one warning through the log hook names the layoutId.
        do {
            let surface = rig.renderer([.init(at: .milliseconds(10), .visibility(1))])
            rig.execute(Self.attributes, placement: .inline(surface))
        }
        rig.clock.advance(by: .seconds(20))
        #expect(rig.timeline.entries.suffix(2) == [Self.show, Self.hide])
        #expect(rig.client.activeExecutionCount == 1)
        #expect(!rig.timeline.entries.contains(.diagnostic(.webviewLoadTimedOut)))
        let warnings = rig.logs.records.filter { $0.level == .warning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.falconDiagnosticCode == nil)
        #expect(
            warnings.first?.message.contains("released before its placement settled (layoutId \(Self.layout))") == true)
    }

    /// A surface identifier is an address: a new surface can get the address of a released one. It must not
    /// supersede the released surface's execution (which meets its released surface at its next input).
    @Test func aNewSurfaceAtAReleasedSurfacesAddressSupersedesNothing() {
        let rig = Self.rig()
        var releasedID: ObjectIdentifier?
        do {
            let surface = rig.renderer([.init(at: .milliseconds(10), .loaded(height: 50))])
            releasedID = ObjectIdentifier(surface)
            rig.execute(Self.attributes, placement: .inline(surface))
            rig.clock.advance(by: .seconds(1))
        }
        #expect(rig.client.activeExecutionCount == 1)
        // The allocator hands freed blocks of a size out again; look for one at the released surface's address
        // among new surfaces (kept alive, so each is a new address). An allocator that quarantines freed memory
        // (the address sanitizer's) never does: the case cannot arise there.
        var kept: [ScriptedRenderer] = []
        var reused: ScriptedRenderer?
        for _ in 0..<1_000 {
            let candidate = rig.renderer([])
            if ObjectIdentifier(candidate) == releasedID {
                reused = candidate
                break
            }
            kept.append(candidate)
        }
        guard let surface = reused else { return }
        rig.execute(Self.attributes, placement: .inline(surface))
        rig.executor.runAll()
        #expect(rig.client.activeExecutionCount == 2)
        #expect(!rig.timeline.entries.contains(.callback("onUnload")))
    }

    @Test func overlayCloseCompletesAfterTheDismissalFinishes() {
        let executor = ManualFalconExecutor()
        let clock = ManualFalconClock(executor: executor)
        let presenter = InMemoryOverlayPresenter(dismissal: .manual) {
            ScriptedRenderer(
                clock: clock,
                script: [
                    .init(at: .milliseconds(100), .loaded(height: 600)),
                    .init(at: .seconds(3), .close),
                ])
        }
        let timeline = FalconTimeline(clock: clock)
        let client = FalconClient(
            dependencies: FalconClientDependencies(
                executor: executor, clock: clock, beaconTransport: timeline,
                logHandler: InMemoryLogHandler(), overlayPresenter: presenter)
        )
        client.initSdk(apiKey: "KEY")
        client.events(layoutId: Self.layout, handler: timeline.eventHandler())
        let callbacks = timeline.callbacks()
        client.execute(
            attributes: Self.attributes, placement: .overlay, onLoad: callbacks.onLoad,
            onUnload: callbacks.onUnload, onShouldShowLoadingIndicator: callbacks.onShouldShowLoadingIndicator,
            onShouldHideLoadingIndicator: callbacks.onShouldHideLoadingIndicator)
        clock.advance(by: .seconds(5))
        #expect(timeline.entries == [Self.show, Self.hide, .callback("onLoad"), .event("placementInteractive")])
        #expect(presenter.operations == [.present, .dismiss])
        presenter.completeDismissal()
        executor.runAll()
        #expect(timeline.entries.suffix(2) == [.callback("onUnload"), .event("placementCompleted")])
    }

    @Test func overlayTimeoutDismissesItselfBeforeOnError() async {
        let rig = Self.rig(
            loadTimeout: .milliseconds(300),
            presenter: InMemoryOverlayPresenter(dismissal: .manual) {
                ScriptedRenderer(clock: ManualFalconClock(), script: [])
            })
        rig.execute(Self.attributes, placement: .overlay)
        rig.clock.advance(by: .seconds(1))
        #expect(rig.timeline.entries(excludingBeacons: true) == [Self.show, .diagnostic(.webviewLoadTimedOut)])
        // A second overlay while the first is still dismissing is refused.
        rig.execute(Self.attributes, placement: .overlay)
        rig.executor.runAll()
        #expect(
            rig.timeline.entries(excludingBeacons: true).suffix(5) == [
                Self.show, .diagnostic(.noPresenter), Self.hide, Self.loadError, Self.failureEvent,
            ])
        guard let presenter = rig.client.dependencies.overlayPresenter as? InMemoryOverlayPresenter else { return }
        presenter.completeDismissal()
        rig.executor.runAll()
        #expect(
            rig.timeline.entries(excludingBeacons: true).suffix(3) == [Self.hide, Self.loadError, Self.failureEvent])
        #expect(rig.client.activeExecutionCount == 0)
        await rig.client.waitForPendingBeacons()
        #expect(rig.timeline.beaconCodes.sorted { $0.rawValue < $1.rawValue } == [.noPresenter, .webviewLoadTimedOut])
    }

    @Test func overlayWithoutPresenterFails() {
        let rig = Self.rig(presenter: InMemoryOverlayPresenter.unavailable())
        rig.execute(Self.attributes, placement: .overlay)
        rig.executor.runAll()
        #expect(
            rig.timeline.entries(excludingBeacons: true) == [
                Self.show, .diagnostic(.noPresenter), Self.hide, Self.loadError, Self.failureEvent,
            ])
    }

    @Test func externalOverlayDismissalUnloadsWithoutCompleted() {
        let presenter = InMemoryOverlayPresenter { nil as (any FalconRenderer)? ?? SilentRenderer() }
        let rig = Self.rig(presenter: presenter)
        rig.execute(Self.attributes, placement: .overlay)
        rig.clock.advance(by: .seconds(1))
        presenter.dismissExternally()
        rig.clock.advance(by: .seconds(20))
        #expect(rig.timeline.entries == [Self.show, Self.hide, .callback("onUnload")])
    }

    @Test func androidStyleJSONBridgeMessages() {
        let rig = Self.rig()
        let renderer = rig.renderer([
            .init(at: .milliseconds(10), .postJSON(#"{"type":"event","name":"loaded","data":{"height":90}}"#)),
            .init(at: .milliseconds(20), .postJSON("not json")),
            .init(at: .milliseconds(30), .postJSON(#"{"type":"event","name":"close","data":{"closeType":"x"}}"#)),
        ])
        rig.execute(Self.attributes, placement: .inline(renderer))
        rig.clock.advance(by: .seconds(1))
        #expect(
            rig.timeline.entries == [
                Self.show, Self.hide, .callback("onLoad"), .callback("onUnload"), .event("placementCompleted"),
            ])
        #expect(rig.logs.records.contains { $0.level == .debug && $0.message.contains("bridge message ignored") })
    }

    /// The bridge text comes from the web page: 500 nested arrays must not take seconds on the caller's thread,
    /// nor be dropped without a word. Text over the limits is rejected at once and the log says why (never the
    /// text).
    @Test func bridgeMessagesOverTheLimitsAreRejectedWithTheReason() {
        let rig = Self.rig()
        let deep =
            #"{"type":"event","name":"secret","data":"# + String(repeating: "[", count: 500)
            + String(repeating: "]", count: 500) + "}"
        let large = #"{"type":"event","name":"secret","data":""# + String(repeating: "x", count: 70_000) + #""}"#
        let renderer = rig.renderer([
            .init(at: .milliseconds(10), .postJSON(deep)),
            .init(at: .milliseconds(20), .postJSON(large)),
            .init(at: .milliseconds(30), .postJSON(#"{"type":"event","name":"loaded","data":{"height":90}}"#)),
        ])
        rig.execute(Self.attributes, placement: .inline(renderer))
        rig.clock.advance(by: .seconds(1))
        #expect(rig.timeline.entries.contains(.callback("onLoad")))
        let rejections = rig.logs.records.filter { $0.message.hasPrefix("bridge message rejected") }
        #expect(rejections.map(\.level) == [.debug, .debug])
        #expect(rejections.first?.message.contains("tooDeep") == true)
        #expect(rejections.last?.message.contains("tooLarge") == true)
        #expect(!rig.logs.records.contains { $0.message.contains("secret") })
    }

    /// A bridge message that arrives as a dictionary (iOS) gets the limits of text; the log says why it was
    /// rejected, never what it held.
    @Test func dictionaryBridgeMessagesOverTheLimitsAreRejectedWithTheReason() {
        let rig = Self.rig()
        var deep: JSONValue = "secret"
        for _ in 0..<100 { deep = [deep] }
        let large: JSONValue = [
            "type": "event", "name": "loaded", "data": .string(String(repeating: "secret", count: 12_000)),
        ]
        let renderer = rig.renderer([
            .init(at: .milliseconds(10), .post(["type": "event", "name": "close", "data": deep])),
            .init(at: .milliseconds(20), .post(large)),
            .init(at: .milliseconds(30), .post(["type": "event", "name": "loaded", "data": ["height": 90]])),
        ])
        rig.execute(Self.attributes, placement: .inline(renderer))
        rig.clock.advance(by: .seconds(1))
        #expect(rig.timeline.entries.contains(.callback("onLoad")))
        #expect(!rig.timeline.entries.contains(.callback("onUnload")))
        let rejections = rig.logs.records.filter { $0.message.hasPrefix("bridge message rejected") }
        #expect(rejections.map(\.level) == [.debug, .debug])
        #expect(rejections.first?.message.contains("tooDeep") == true)
        #expect(rejections.last?.message.contains("tooLarge") == true)
        #expect(!rig.logs.records.contains { $0.message.contains("secret") })
        #expect(rejections.allSatisfy { $0.file == "FalconCore/FalconExecutionReporter.swift" })
        #expect(rejections.allSatisfy { $0.function == "bridgeMessage(_:)" })
    }

    @Test func concurrentExecutesAndReportsFromManyThreads() async {
        let rig = Self.rig()
        let surfaces = (0..<16).map { _ in rig.renderer([]) }
        await withTaskGroup(of: Void.self) { group in
            for (index, surface) in surfaces.enumerated() {
                group.addTask {
                    rig.execute(Self.attributes, placement: index.isMultiple(of: 4) ? .overlay : .inline(surface))
                }
            }
        }
        // Every execute returned, so every queued input was drained; running the executor delivers the loads.
        rig.executor.runAll()
        await withTaskGroup(of: Void.self) { group in
            for (index, surface) in surfaces.enumerated() {
                group.addTask {
                    surface.play(.loaded(height: Double(index + 1)))
                    surface.play(.close)
                }
            }
        }
        rig.clock.advance(by: .seconds(20))
        await rig.client.waitForPendingBeacons()
        let entries = rig.timeline.entries(excludingBeacons: true)
        #expect(entries.filter { $0 == Self.show }.count == 16)
        #expect(entries.filter { $0 == Self.hide }.count == 16)
        #expect(entries.filter { $0 == .callback("onUnload") }.count == 12)
        #expect(entries.filter { $0 == .diagnostic(.noPresenter) }.count == 4)
        #expect(rig.client.activeExecutionCount == 0)
    }

    @Test func absurdLoadTimeoutOverridesAreClamped() {
        let rig = Self.rig(loadTimeout: .seconds(-5))
        let surface = rig.renderer([])
        rig.execute(Self.attributes, placement: .inline(surface))
        rig.clock.advance(by: .zero)
        #expect(rig.timeline.entries.contains(.diagnostic(.webviewLoadTimedOut)))
        let long = Self.rig(loadTimeout: .seconds(Int64.max))
        let longSurface = long.renderer([])
        long.execute(Self.attributes, placement: .inline(longSurface))
        long.clock.advance(by: .seconds(86_399))
        #expect(!long.timeline.entries.contains(.diagnostic(.webviewLoadTimedOut)))
        long.clock.advance(by: .seconds(1))
        #expect(long.timeline.entries.contains(.diagnostic(.webviewLoadTimedOut)))
        #expect(surface.commands.last == .teardown && longSurface.commands.last == .teardown)
    }

    @Test func anyDictionaryAttributesAndSandboxStyle() throws {
        let rig = Self.rig()
        let renderer = rig.renderer([])
        let attributes: [String: Any] = [
            "user_details": ["email": "a@b.c", "age": 42, "vip": true, "when": Date(timeIntervalSince1970: 0)],
            "placement_details": ["layout_id": Self.layout, "view": "ORDER_STATUS"],
        ]
        rig.client.execute(
            attributes: attributes, placement: .inline(renderer), style: FalconStyle(slotPadding: 8), isSandbox: true)
        rig.executor.runAll()
        guard case .load(let url, _) = renderer.commands.first else {
            Issue.record("no load")
            return
        }
        #expect(
            url.absoluteString.hasSuffix(
                "&at.email=a%40b.c&at.age=42&at.vip=true&at.when=1970-01-01T00%3A00%3A00.000Z&sandbox=true&style.slotPadding=8"
            ))
    }
}

/// A renderer that does nothing (a placement that never answers).
final class SilentRenderer: FalconRenderer {
    func perform(_ request: FalconRenderRequest) {}
}
