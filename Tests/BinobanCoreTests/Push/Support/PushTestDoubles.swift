import BinobanCore

/// What a recording target saw, in call order.
enum TargetCall: Equatable, Sendable {
    case track(name: String, properties: JSONValue)
    case setDeviceToken(String)
}

/// A Binoban stand-in that records every call from the notification layer.
final class RecordingNotificationTarget: BinobanNotificationTarget {
    private let recorded = LockedValue<[TargetCall]>([])

    func track(name: String, properties: JSONValue) {
        recorded.withLock { $0.append(.track(name: name, properties: properties)) }
    }

    func setDeviceToken(token: String) {
        recorded.withLock { $0.append(.setDeviceToken(token)) }
    }

    var calls: [TargetCall] { recorded.withLock { $0 } }

    /// The tracked events, as `(name, properties)`.
    var events: [(name: String, properties: JSONValue)] {
        calls.compactMap { call in
            if case .track(let name, let properties) = call { return (name, properties) }
            return nil
        }
    }

    var eventNames: [String] { events.map(\.name) }

    var tokens: [String] {
        calls.compactMap { call in
            if case .setDeviceToken(let token) = call { return token }
            return nil
        }
    }
}

/// An app handler that records what it receives and does not track.
final class RecordingInteractionHandler: NotificationInteractionHandler, Sendable {
    private let received = LockedValue<[NotificationInteraction]>([])

    func onNotificationInteraction(interaction: NotificationInteraction) {
        received.withLock { $0.append(interaction) }
    }

    var interactions: [NotificationInteraction] { received.withLock { $0 } }
}

/// What a ``SubclassedInteractionHandler`` received; the test keeps this, the manager owns the handler.
final class ReceivedInteractions: Sendable {
    private let received = LockedValue<[NotificationInteraction]>([])

    func append(_ interaction: NotificationInteraction) { received.withLock { $0.append(interaction) } }

    var interactions: [NotificationInteraction] { received.withLock { $0 } }
}

/// A subclass of the default handler, written as the seed writes it (no `Sendable` restated): records, then
/// calls `super` (or not).
class SubclassedInteractionHandler: DefaultNotificationInteractionHandler {
    private let received: ReceivedInteractions
    private let callsSuper: Bool

    init(notifications: BinobanNotifications, callsSuper: Bool, received: ReceivedInteractions) {
        self.callsSuper = callsSuper
        self.received = received
        super.init(notifications: notifications)
    }

    override func onNotificationInteraction(interaction: NotificationInteraction) {
        received.append(interaction)
        if callsSuper { super.onNotificationInteraction(interaction: interaction) }
    }
}

/// Collects diagnostics.
final class DiagnosticsRecorder: Sendable {
    private let recorded = LockedValue<[NotificationDiagnostic]>([])

    var handler: @Sendable (NotificationDiagnostic) -> Void {
        { [recorded] diagnostic in recorded.withLock { $0.append(diagnostic) } }
    }

    var codes: [NotificationDiagnostic.Code] { recorded.withLock { $0.map(\.code) } }
    var all: [NotificationDiagnostic] { recorded.withLock { $0 } }
}

/// A presenter whose answers are scripted and whose requests are recorded.
final class ScriptedPresenter: NotificationPresenter {
    private let displayed = LockedValue<[NotificationDisplayRequest]>([])
    private let permissionRequests = LockedValue(0)
    let displayOutcome: NotificationDisplayResult.Outcome
    let permission: NotificationPermissionResult.Status

    init(
        displayOutcome: NotificationDisplayResult.Outcome = .displayed,
        permission: NotificationPermissionResult.Status = .granted
    ) {
        self.displayOutcome = displayOutcome
        self.permission = permission
    }

    func requestPermission(_ request: NotificationPermissionRequest) async -> NotificationPermissionResult {
        permissionRequests.withLock { $0 += 1 }
        return NotificationPermissionResult(status: permission)
    }

    func display(_ request: NotificationDisplayRequest) async -> NotificationDisplayResult {
        displayed.withLock { $0.append(request) }
        return NotificationDisplayResult(outcome: displayOutcome)
    }

    var displayRequests: [NotificationDisplayRequest] { displayed.withLock { $0 } }
    var permissionRequestCount: Int { permissionRequests.withLock { $0 } }
}

/// A Binoban payload as Firebase delivers it: flat, string values.
func binobanUserInfo(
    uuid: String = "n-1",
    uri: String? = "app://main",
    actions: [BinobanPushAction] = [],
    customData: [String: String]? = nil
) -> JSONValue {
    BinobanPushPayload(
        notificationUuid: uuid,
        title: "Title",
        body: "Body",
        uri: uri,
        actions: actions,
        customData: customData
    ).userInfo()
}

/// A layer bound to a fresh recording target, with diagnostics recorded.
func makeAttachedLayer(
    presenter: any NotificationPresenter = NoOpNotificationPresenter(),
    options: BinobanNotifications.Options = .init()
) -> (BinobanNotifications, RecordingNotificationTarget, DiagnosticsRecorder) {
    let diagnostics = DiagnosticsRecorder()
    let notifications = BinobanNotifications(presenter: presenter, options: options, diagnostics: diagnostics.handler)
    let target = RecordingNotificationTarget()
    notifications.attach(target)
    return (notifications, target, diagnostics)
}
