import BinobanCore
import BinobanCoreURLSession
import FalconCore
import FalconCoreURLSession
import Foundation
import Testing

/// The right-hand (this package's) code of `Docs/PortingFromTheiOSSDKs.md`, compiled with every build.
///
/// The snippets call the process-wide facades (`Falcon.shared`, `BinobanNotifications.shared`), and tests run in
/// parallel in one process, so the snippet functions are compiled but never called; the one test below runs the
/// stand-ins they rely on. Change the guide and this file together.
enum PortingGuideSnippets {
    // MARK: Stand-ins for what an app has

    /// The app's web view wrapper.
    final class EmbeddedView: FalconInlineSurface {
        let requests = LockedValue<[FalconRenderRequest]>([])
        func perform(_ request: FalconRenderRequest) { requests.withLock { $0.append(request) } }
    }

    /// The app's modal presenter.
    struct MyOverlayPresenter: FalconOverlayPresenter {
        func perform(_ request: FalconOverlayRequest) { request.reporter.overlayUnavailable() }
    }

    enum MyErrorTracker {
        static func capture(_ code: String) { _ = code }
    }

    struct Spinner: Sendable {
        func start() {}
        func stop() {}
    }

    final class Router: Sendable {
        static let shared = Router()
        func route(_ uri: String?) { _ = uri }
    }

    // MARK: Falcon

    class MyDiagnosticsHandler: FalconDiagnosticsDelegate {
        func falconDidEncounter(_ diagnostic: FalconDiagnostic) {
            MyErrorTracker.capture(diagnostic.code.rawValue)
        }
    }

    static func falcon(embeddedView: EmbeddedView, surface: EmbeddedView, spinner: Spinner, jsonAttributes: JSONValue) {
        Falcon.shared = FalconClient(
            dependencies: FalconClientDependencies(
                executor: FalconDispatchQueueExecutor(queue: .main),  // the default on Apple platforms, as on iOS
                beaconTransport: URLSessionBeaconTransport(),  // FalconCoreURLSession; optional (Linux: libcurl)
                overlayPresenter: MyOverlayPresenter()  // without it every overlay fails with noPresenter
            )
        )
        Falcon.initSdk(apiKey: "YOUR_API_KEY")

        let attributes: [String: Any] = [
            "user_details": ["email": "user@example.com", "first_name": "Jane", "last_name": "Smith"],
            "placement_details": ["layout_id": "APP_NATIVE_ESSENTIAL_0.1", "view": "ORDER_STATUS"],
        ]
        Falcon.execute(attributes: attributes, placement: .inline(embeddedView))
        Falcon.execute(attributes: attributes, placement: .inline(embeddedView), isSandbox: true)

        Falcon.execute(
            attributes: attributes,
            placement: .overlay,
            onLoad: { print("overlay loaded") },
            onUnload: { print("overlay dismissed") },
            onError: { error in print("overlay error: \(error)") }
        )

        let pending = Falcon.executeOnNextTurn(attributes: attributes, placement: .inline(surface))
        // … when the view goes away:
        pending.cancel()

        let style = FalconStyle(
            widgetBackgroundColor: .clear,
            slotBackgroundColor: .white,
            acceptButtonBackgroundColor: FalconColor(red: 0, green: 0.514, blue: 0.388, alpha: 1),
            acceptButtonTextColor: .white,
            promoCodeBackgroundColor: FalconColor(red: 0.176, green: 0.655, blue: 0.518, alpha: 1),
            fontFamily: "Roboto"
        )
        Falcon.execute(attributes: attributes, placement: .inline(embeddedView), style: style)

        Falcon.execute(
            attributes: attributes,
            placement: .inline(embeddedView),
            onLoad: { print("placement loaded") },
            onUnload: { print("placement unloaded") },
            onError: { error in print("placement error: \(error)") },
            onShouldShowLoadingIndicator: { spinner.start() },
            onShouldHideLoadingIndicator: { spinner.stop() }
        )

        Falcon.events(layoutId: "APP_NATIVE_ESSENTIAL_0.1") { event in
            switch event {
            case .placementInteractive: print("placement is interactive")
            case .placementCompleted: print("placement completed")
            case .placementFailure(let error): print("placement failed: \(error)")
            }
        }
        Falcon.removeEventsHandler(layoutId: "APP_NATIVE_ESSENTIAL_0.1")

        Falcon.diagnosticsDelegate = MyDiagnosticsHandler()

        Falcon.initSdk(
            apiKey: "YOUR_API_KEY", config: FalconConfig(placementMapping: ["ORDER_STATUS": "your-falcon-placement-id"])
        )
        Falcon.initSdk(apiKey: "YOUR_API_KEY", config: FalconConfig(diagnosticBeaconsEnabled: false))
        Falcon.initSdk(
            apiKey: "YOUR_API_KEY",
            config: FalconConfig(diagnosticsURL: URL(string: "https://telemetry.example.com/falcon")))
        print("FalconSDK \(Falcon.version)")  // "1.3.1"
    }

    // MARK: Binoban

    final class AppInteractionHandler: DefaultNotificationInteractionHandler {
        override func onNotificationInteraction(interaction: NotificationInteraction) {
            super.onNotificationInteraction(interaction: interaction)  // keeps the bb_notification_* tracking
            Router.shared.route(interaction.uri)
        }
    }

    static func binoban(fcmToken: String, userInfo: [AnyHashable: Any], actionId: String?) {
        let binoban = BinobanFactory.shared.create(apiKey: "YOUR_API_KEY", sourceIdentifier: "YOUR_SOURCE_ID") {
            config in
            config.apiHost = "api.binoban.io"
            config.flushAt = 20
            config.flushInterval = 30
            config.transport = URLSessionEventTransport()  // BinobanCoreURLSession; optional (Linux: libcurl)
        }

        binoban.track(name: "purchase", properties: ["item": "shoes", "price": "49.99"])
        binoban.identify(userId: "user_123", traits: ["email": "test@example.com"])
        binoban.flush()
        binoban.reset()

        let anonymousId = binoban.anonymousId()  // String, always present
        let userId = binoban.userId()  // String?
        let deviceId = binoban.deviceId()  // String
        _ = (anonymousId, userId, deviceId)

        Binoban.companion.debugLogsEnabled = true  // the iOS spelling; Binoban.debugLogsEnabled is the same switch
        binoban.enabled = false  // pause: new events are dropped, stored batches kept
        binoban.enabled = true  // resume: uploads what is stored
        binoban.flushAt = 50
        binoban.flushInterval = 60

        BinobanNotifications.shared.initializeNotifications(
            configuration: NotificationPlatformConfigurationIos(
                askNotificationPermissionOnStart: true, notificationSoundName: nil)
        )
        BinobanNotifications.shared.onNewToken(token: fcmToken)
        BinobanNotifications.shared.onApplicationDidReceiveRemoteNotification(userInfo: userInfo)
        BinobanNotifications.shared.onWillPresentForwarded(userInfo: userInfo)
        BinobanNotifications.shared.onDidReceiveForwarded(userInfo: userInfo, actionId: actionId, dismissed: false)
        binoban.setDeviceToken(token: fcmToken)
        BinobanNotification.shared.refreshToken(token: fcmToken)  // iOS: Notification.shared.refreshToken(token:)

        NotificationInteractionManager.shared.setHandler(handler: AppInteractionHandler())
        for interaction in NotificationInteractionManager.shared.drainPendingInteractions() {
            Router.shared.route(interaction.uri)  // already tracked: route only
        }
        NotificationInteractionManager.shared.resetToDefault()
    }

    /// Waiting for the upload in async code, as the guide says.
    static func flushInAsyncCode(_ binoban: Binoban) async {
        _ = await binoban.flushAndWait()
    }
}

@Suite("Docs/PortingFromTheiOSSDKs.md: the stand-ins behave as the guide assumes")
struct PortingGuideSnippetTests {
    @Test("A client with the guide's presenter and the default executor loads on the app's surface")
    func clientWithGuideEdges() async {
        // No beacon transport here: a test must not reach the network.
        let executor = FalconDispatchQueueExecutor()  // the default executor, held so the test can wait on it
        let client = FalconClient(
            dependencies: FalconClientDependencies(
                executor: executor,
                overlayPresenter: PortingGuideSnippets.MyOverlayPresenter(),
                // The real clock runs here: a long load timeout keeps the execution alive however slow the machine.
                loadTimeout: .seconds(3600)
            )
        )
        client.initSdk(apiKey: "YOUR_API_KEY", config: FalconConfig(placementMapping: ["ORDER_STATUS": "p-1"]))
        let view = PortingGuideSnippets.EmbeddedView()
        let attributes: [String: Any] = ["placement_details": ["view": "ORDER_STATUS"]]
        client.execute(attributes: attributes, placement: .inline(view))
        // Commands are delivered on the executor in FIFO order: once a job enqueued after `execute` has run,
        // the `load` has reached the surface.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in executor.enqueue { done.resume() } }
        let first = view.requests.withLock { $0.first }
        // The host removes the view: the execution ends silently, so no timer outlives the test.
        defer { first?.reporter.hostTeardown() }
        guard case .load(let url, _) = first?.command else {
            Issue.record("expected a load command, got \(String(describing: first?.command))")
            return
        }
        #expect(url.absoluteString.hasPrefix("https://pr.falconlabs.us/ui/webview?placement=p-1&"))
        #expect(client.activeExecutionCount == 1)
    }
}
