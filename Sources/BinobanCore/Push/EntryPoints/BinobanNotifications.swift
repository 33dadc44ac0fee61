/// The notification layer of Binoban: forward your app's push callbacks here.
///
/// ``shared`` is the facade the iOS SDK documents; it is bound to the first Binoban instance when that
/// instance is created. Tests and servers create their own instances with injected dependencies and bind
/// them with ``attach(_:)``.
///
/// ```swift
/// let notifications = BinobanNotifications(presenter: MyPresenter())
/// notifications.attach(binoban)
/// notifications.onNewToken(token: fcmToken)
/// notifications.onWillPresentForwarded(userInfo: userInfo)
/// ```
///
/// Every call returns promptly and never throws or traps. Non-Binoban payloads (a `source` other than
/// exactly `binoban`) are ignored: no event, no interaction. The layer never displays anything itself and never
/// opens a URL: display goes to the ``NotificationPresenter``, routing to the app's interaction handler.
public final class BinobanNotifications: Sendable {
    /// The process-wide notification layer the iOS SDK documents.
    public static let shared = BinobanNotifications()

    private struct State: Sendable {
        var presenter: any NotificationPresenter
        var configuration: NotificationPlatformConfigurationIos?
        var delivered: RecentNotificationIDs
        /// The latest display: the next one starts after it returned, so displays reach the presenter one at a
        /// time, in arrival order, and each in-use report is current when its merge happens.
        var lastDisplay: Task<Void, Never>?
    }

    /// The interaction manager of this layer (``NotificationInteractionManager/shared`` for ``shared``).
    public let interactionManager: NotificationInteractionManager
    /// The options this layer uses: those it was created with, bounds capped
    /// (``Options/maximumCapacity``), and ``BinobanPushPayloadKeys/standard`` keys if the given ones had
    /// ``BinobanPushPayloadKeys/problems``.
    public let options: Options
    let sink: NotificationEventSink
    private let state: LockedValue<State>

    /// Creates a notification layer.
    ///
    /// - Parameters:
    ///   - presenter: Displays pushes and asks for permission; the default shows nothing.
    ///   - options: Bounds and key names. A key table with ``BinobanPushPayloadKeys/problems`` is replaced by
    ///     the standard one and reported (``NotificationDiagnostic/Code/invalidPayloadKeys``) before this returns.
    ///   - logHandler: The package's log hook: every diagnostic is also written there as a record
    ///     (``NotificationDiagnostic/logRecord``). Default `nil`: nothing is written or printed.
    ///   - diagnostics: Receives everything dropped, converted or not done; called outside any lock, on the
    ///     caller's thread or task.
    public init(
        presenter: any NotificationPresenter = NoOpNotificationPresenter(),
        options: Options = Options(),
        diagnostics: (@Sendable (NotificationDiagnostic) -> Void)? = nil,
        logHandler: (any SDKCoreLogHandler)? = nil
    ) {
        var options = options.clamped
        let keyProblems = options.keys.problems
        if !keyProblems.isEmpty { options.keys = .standard }
        self.options = options
        let sink = NotificationEventSink(
            pendingEventCapacity: options.pendingEventCapacity, diagnostics: diagnostics, logHandler: logHandler)
        self.sink = sink
        if !keyProblems.isEmpty {
            sink.report(
                NotificationDiagnostic(
                    code: .invalidPayloadKeys,
                    message: "the payload keys cannot be used (\(keyProblems.joined(separator: "; "))); "
                        + "using the standard keys"))
        }
        interactionManager = NotificationInteractionManager(
            defaultHandler: DefaultNotificationInteractionHandler(sink: sink),
            replayCapacity: options.replayCapacity
        )
        state = LockedValue(
            State(
                presenter: presenter, configuration: nil,
                delivered: RecentNotificationIDs(capacity: options.deliveredMemory))
        )
    }

    // MARK: Binding

    /// Binds the Binoban instance that receives this layer's events, then hands it the token and events that
    /// arrived before (the token first).
    ///
    /// The factory calls this when it creates the first instance; calling it again rebinds.
    public func attach(_ target: any BinobanNotificationTarget) {
        sink.attach(target)
    }

    /// Binds `target` only when no live instance is bound (what the factory does for the first instance it
    /// creates); `true` when it was bound.
    @discardableResult
    func attachIfUnbound(_ target: any ExpiringNotificationTarget) -> Bool {
        sink.attachIfUnbound(target)
    }

    /// Unbinds the current Binoban instance; later tokens and events wait for the next ``attach(_:)``.
    public func detach() {
        sink.detach()
    }

    /// Replaces the presenter (for ``shared``, whose presenter cannot be passed at creation).
    public func setPresenter(_ presenter: any NotificationPresenter) {
        state.withLock { $0.presenter = presenter }
    }

    /// Replaces the diagnostics handler; `nil` stops reporting.
    public func setDiagnosticsHandler(_ handler: (@Sendable (NotificationDiagnostic) -> Void)?) {
        sink.setDiagnosticsHandler(handler)
    }

    /// Replaces the log handler that receives every diagnostic as a log record (for ``shared``, which is
    /// created without one).
    public func setLogHandler(_ handler: (any SDKCoreLogHandler)?) {
        sink.setLogHandler(handler)
    }

    // MARK: Entry points

    /// Configures the layer at app launch and, if `askNotificationPermissionOnStart`, asks the presenter for
    /// permission.
    ///
    /// Returns at once; await the returned task for the permission answer (`nil` when not asked). Calling it
    /// again replaces the configuration.
    @discardableResult
    public func initializeNotifications(
        configuration: NotificationPlatformConfigurationIos
    ) -> Task<NotificationPermissionResult?, Never> {
        let presenter = state.withLock { state -> any NotificationPresenter in
            state.configuration = configuration
            return state.presenter
        }
        let sink = sink
        // Returned to the host, which awaits it for the answer or lets it run: the request is the platform's
        // prompt, which must not hold the caller, and its outcome is reported either way.
        return Task {
            guard configuration.askNotificationPermissionOnStart else { return nil }
            let result = await presenter.requestPermission(NotificationPermissionRequest())
            if result.status == .denied {
                sink.report(
                    NotificationDiagnostic(code: .permissionNotGranted, message: "notification permission was denied")
                )
            }
            return result
        }
    }

    /// Registers the Firebase registration token (from `MessagingDelegate`); emits `bb_notification_registered`.
    ///
    /// Blank tokens are ignored and reported. Before any Binoban instance is attached the latest token is kept
    /// and emitted on ``attach(_:)``. The same token twice registers twice: safe to call repeatedly.
    public func onNewToken(token: String) {
        sink.setDeviceToken(token)
    }

    /// Registers a token; the same path as ``onNewToken(token:)``.
    public func refreshToken(token: String) {
        sink.setDeviceToken(token)
    }

    /// Registers a token; the same path as ``onNewToken(token:)``.
    public func setDeviceToken(token: String) {
        sink.setDeviceToken(token)
    }

    /// Asks the presenter to display a Binoban data push (from
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`).
    ///
    /// Does not report delivered: that comes from `onWillPresentForwarded(userInfo:)`. Nothing is displayed
    /// before ``initializeNotifications(configuration:)`` (reported). A presenter failure dispatches a
    /// `FAILED` interaction with the presenter's reason. Returns at once; await the task for the outcome.
    ///
    /// Displays reach the presenter one at a time, in the order the pushes arrived: each asks the presenter
    /// which categories are in use (``NotificationPresenter/categoriesInUse()``), hands the answer over in the
    /// request, and waits for ``NotificationPresenter/display(_:)`` to return before the next one starts, so
    /// the presenter's read–merge–write of the category set never interleaves (Docs/Decisions/0408).
    @discardableResult
    public func onApplicationDidReceiveRemoteNotification(userInfo: JSONValue) -> Task<NotificationDisplayResult, Never>
    {
        displayRemoteNotification(ForwardedUserInfo(userInfo))
    }

    func displayRemoteNotification(_ userInfo: ForwardedUserInfo) -> Task<NotificationDisplayResult, Never> {
        // Every path returns a task the host may await for the outcome (the entry point's result type).
        guard let payload = binobanPayload(in: userInfo) else {
            return Task { NotificationDisplayResult(outcome: .notDisplayed(reason: "not a usable Binoban payload")) }
        }
        let (presenter, configuration) = state.withLock { ($0.presenter, $0.configuration) }
        guard let configuration else {
            sink.report(
                NotificationDiagnostic(
                    code: .notInitialized,
                    message: "a push arrived before initializeNotifications(configuration:); not displayed"
                )
            )
            return Task {
                NotificationDisplayResult(outcome: .notDisplayed(reason: "notifications are not initialized"))
            }
        }
        let request = displayRequest(
            for: payload,
            received: userInfo.value,
            soundName: configuration.notificationSoundName
        )
        return state.withLock { state in
            let previous = state.lastDisplay
            let display = Task { [sink, interactionManager] in
                await previous?.value
                var current = request
                current.categoriesInUse = await presenter.categoriesInUse()
                return await Self.display(
                    current, of: payload, with: presenter, sink: sink, interactionManager: interactionManager)
            }
            // The chain's tail: the next display awaits it, so displays reach the presenter one at a time.
            state.lastDisplay = Task { _ = await display.value }
            return display
        }
    }

    /// One display, with the `FAILED` interaction and the diagnostic of a failure.
    private static func display(
        _ request: NotificationDisplayRequest,
        of payload: BinobanPushPayload,
        with presenter: any NotificationPresenter,
        sink: NotificationEventSink,
        interactionManager: NotificationInteractionManager
    ) async -> NotificationDisplayResult {
        let result = await presenter.display(request)
        if case .failed(let reason) = result.outcome {
            sink.report(
                NotificationDiagnostic(code: .displayFailed, message: "the presenter could not display a notification")
            )
            interactionManager.dispatch(
                NotificationInteraction(
                    notificationUuid: payload.notificationUuid,
                    type: .failed,
                    customData: payload.customData,
                    reason: reason
                )
            )
        }
        return result
    }

    /// Reports `DELIVERED` for a notification presented in the foreground (from
    /// `userNotificationCenter(_:willPresent:withCompletionHandler:)`).
    ///
    /// At most once per notification uuid: a repeated forward of the same notification is ignored (the last
    /// ``Options/deliveredMemory`` uuids are remembered).
    public func onWillPresentForwarded(userInfo: JSONValue) {
        willPresent(ForwardedUserInfo(userInfo))
    }

    func willPresent(_ userInfo: ForwardedUserInfo) {
        guard let payload = binobanPayload(in: userInfo) else { return }
        let isNew = state.withLock { $0.delivered.insert(payload.notificationUuid) }
        guard isNew else { return }
        interactionManager.dispatch(
            NotificationInteraction(
                notificationUuid: payload.notificationUuid,
                type: .delivered,
                uri: payload.uri,
                customData: payload.customData
            )
        )
    }

    /// Reports a tap (`CLICKED`) or a dismissal (`CLOSED`) (from
    /// `userNotificationCenter(_:didReceive:withCompletionHandler:)`).
    ///
    /// - Parameters:
    ///   - userInfo: The notification's `userInfo`.
    ///   - actionId: The tapped button's id, or `nil` (or empty, or `UNNotificationDefaultActionIdentifier`)
    ///     for a body tap. `UNNotificationDismissActionIdentifier` counts as a dismissal.
    ///   - dismissed: `true` when the user dismissed the notification.
    ///
    /// A button tap reports that button's own uri (`nil` if it has none, never the main uri); a body tap
    /// reports the main uri.
    public func onDidReceiveForwarded(userInfo: JSONValue, actionId: String?, dismissed: Bool) {
        didReceive(ForwardedUserInfo(userInfo), actionId: actionId, dismissed: dismissed)
    }

    func didReceive(_ userInfo: ForwardedUserInfo, actionId: String?, dismissed: Bool) {
        guard let payload = binobanPayload(in: userInfo) else { return }
        let action = Self.normalizedAction(actionId)
        let interaction: NotificationInteraction
        if dismissed || action == .dismiss {
            interaction = NotificationInteraction(
                notificationUuid: payload.notificationUuid,
                type: .closed,
                customData: payload.customData
            )
        } else if case .button(let id) = action {
            interaction = NotificationInteraction(
                notificationUuid: payload.notificationUuid,
                type: .clicked,
                actionId: id,
                uri: payload.uri(forAction: id),
                customData: payload.customData
            )
        } else {
            interaction = NotificationInteraction(
                notificationUuid: payload.notificationUuid,
                type: .clicked,
                uri: payload.uri,
                customData: payload.customData
            )
        }
        interactionManager.dispatch(interaction)
    }

    /// Reports `OPENED`: the app was opened from this notification by a path other than a tap callback (for
    /// example a launch-options payload or a deep link the host attributes to the notification).
    ///
    /// Carries the main uri. Not deduplicated; report each open once.
    public func onNotificationOpened(userInfo: JSONValue) {
        opened(ForwardedUserInfo(userInfo))
    }

    func opened(_ userInfo: ForwardedUserInfo) {
        guard let payload = binobanPayload(in: userInfo) else { return }
        interactionManager.dispatch(
            NotificationInteraction(
                notificationUuid: payload.notificationUuid,
                type: .opened,
                uri: payload.uri,
                customData: payload.customData
            )
        )
    }

    // MARK: Helpers

    private enum ForwardedAction: Equatable {
        case body
        case dismiss
        case button(String)
    }

    private static let platformDefaultAction = "com.apple.UNNotificationDefaultActionIdentifier"
    private static let platformDismissAction = "com.apple.UNNotificationDismissActionIdentifier"

    private static func normalizedAction(_ actionId: String?) -> ForwardedAction {
        guard let actionId, !actionId.isEmpty, actionId != platformDefaultAction else { return .body }
        if actionId == platformDismissAction { return .dismiss }
        return .button(actionId)
    }

    /// Parses `userInfo` and returns the payload if it is a usable Binoban one. For a Binoban payload, reports
    /// what the conversion and the parser dropped; for any other payload reports nothing.
    private func binobanPayload(in userInfo: ForwardedUserInfo) -> BinobanPushPayload? {
        let result = BinobanPushPayload.parse(userInfo.value, keys: options.keys)
        if case .notBinoban = result { return nil }
        sink.report(userInfo.conversionDiagnostics)
        sink.report(result.diagnostics)
        return result.payload
    }

    /// The request for one push. Its `userInfo` is the push as received (what JSON could carry, so Firebase's own
    /// keys survive) overlaid with the normalized Binoban fields and each button's stashed uri.
    private func displayRequest(
        for payload: BinobanPushPayload,
        received: JSONValue,
        soundName: String?
    ) -> NotificationDisplayRequest {
        var userInfo = received.objectValue ?? [:]
        if case .object(let normalized) = payload.userInfo(keys: options.keys) {
            userInfo.merge(normalized) { _, binoban in binoban }
        }
        // One category per distinct button set, shared by every push with those buttons (Docs/Decisions/0408).
        let actions = payload.actions.map { NotificationAction(identifier: $0.id, title: $0.title) }
        let category = NotificationCategory(
            identifier: NotificationCategoryRegistry.identifier(forActions: actions),
            actions: actions,
            reportsDismissal: true
        )
        return NotificationDisplayRequest(
            notificationUuid: payload.notificationUuid,
            title: payload.title,
            body: payload.body,
            soundName: soundName,
            category: category,
            userInfo: .object(userInfo)
        )
    }
}
