/// Where the notification layer's events go: the attached Binoban instance, or a small waiting area until one
/// is attached. Also relays diagnostics to the host's handler.
///
/// Locks are held only to read or change state; the target and the diagnostics handler are always called
/// after the lock is released.
final class NotificationEventSink: Sendable {
    fileprivate struct State: Sendable {
        var target: (any ExpiringNotificationTarget)?
        var pendingToken: String?
        var pendingEvents: DropOldestBuffer<PendingEvent>
        var diagnostics: (@Sendable (NotificationDiagnostic) -> Void)?
        var logHandler: (any SDKCoreLogHandler)?
    }

    fileprivate struct PendingEvent: Sendable {
        var name: String
        var properties: JSONValue
    }

    private let state: LockedValue<State>

    init(
        pendingEventCapacity: Int, diagnostics: (@Sendable (NotificationDiagnostic) -> Void)?,
        logHandler: (any SDKCoreLogHandler)? = nil
    ) {
        state = LockedValue(
            State(
                pendingEvents: DropOldestBuffer(capacity: pendingEventCapacity), diagnostics: diagnostics,
                logHandler: logHandler)
        )
    }

    func setLogHandler(_ handler: (any SDKCoreLogHandler)?) {
        state.withLock { $0.logHandler = handler }
    }

    func setDiagnosticsHandler(_ handler: (@Sendable (NotificationDiagnostic) -> Void)?) {
        state.withLock { $0.diagnostics = handler }
    }

    /// Hands `diagnostic` to the diagnostics handler and the log hook; the log record names the caller's file,
    /// function and line.
    func report(
        _ diagnostic: NotificationDiagnostic, file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        report([diagnostic], file: file, function: function, line: line)
    }

    /// Hands each diagnostic to the diagnostics handler and the log hook, in order; the log records name the
    /// caller's file, function and line.
    func report(
        _ diagnostics: [NotificationDiagnostic], file: String = #fileID, function: String = #function,
        line: UInt = #line
    ) {
        guard !diagnostics.isEmpty else { return }
        let (handler, logHandler) = state.withLock { ($0.diagnostics, $0.logHandler) }
        for diagnostic in diagnostics {
            logHandler?.log(diagnostic.logRecord(file: file, function: function, line: line))
            handler?(diagnostic)
        }
    }

    /// Binds `target` (held until it is replaced or detached), then hands it the waiting token and events
    /// (token first, events oldest first).
    func attach(_ target: any BinobanNotificationTarget) {
        bind(HeldNotificationTarget(target), onlyIfUnbound: false)
    }

    /// Binds `target` only when no live target is bound; `true` when it was bound.
    @discardableResult
    func attachIfUnbound(_ target: any ExpiringNotificationTarget) -> Bool {
        bind(target, onlyIfUnbound: true)
    }

    @discardableResult
    private func bind(_ target: any ExpiringNotificationTarget, onlyIfUnbound: Bool) -> Bool {
        let handover = state.withLock { state -> (String?, [PendingEvent])? in
            if onlyIfUnbound, state.liveTarget() != nil { return nil }
            state.target = target
            let token = state.pendingToken
            state.pendingToken = nil
            return (token, state.pendingEvents.removeAll())
        }
        guard let (token, events) = handover else { return false }
        if let token { target.setDeviceToken(token: token) }
        for event in events { target.track(name: event.name, properties: event.properties) }
        return true
    }

    /// Unbinds the current target; later tokens and events wait for the next ``attach(_:)``.
    func detach() {
        state.withLock { $0.target = nil }
    }

    /// Registers `token` with the target, or keeps it (the latest only) until one is attached.
    func setDeviceToken(_ token: String) {
        guard !token.isBlank else {
            report(
                NotificationDiagnostic(code: .blankTokenIgnored, message: "an empty or blank push token was ignored"))
            return
        }
        let target = state.withLock { state -> (any BinobanNotificationTarget)? in
            let target = state.liveTarget()
            if target == nil { state.pendingToken = token }
            return target
        }
        target?.setDeviceToken(token: token)
    }

    /// Tracks `interaction` as its `bb_notification_*` event, or keeps it (bounded) until a target is attached.
    func track(_ interaction: NotificationInteraction) {
        let event = PendingEvent(name: interaction.type.eventName, properties: interaction.eventProperties)
        let (target, dropped) = state.withLock { state -> ((any BinobanNotificationTarget)?, Bool) in
            if let target = state.liveTarget() { return (target, false) }
            return (nil, state.pendingEvents.append(event))
        }
        if let target {
            target.track(name: event.name, properties: event.properties)
        } else if dropped {
            report(
                NotificationDiagnostic(
                    code: .pendingEventsDropped,
                    message: "a notification event waiting for the first Binoban instance was dropped (oldest first)"
                )
            )
        }
    }
}

extension NotificationEventSink.State {
    /// The bound target, unless it has expired (an instance bound weakly that is gone): then it is unbound, so
    /// tokens and events wait for the next one instead of vanishing.
    fileprivate mutating func liveTarget() -> (any BinobanNotificationTarget)? {
        if let bound = target, bound.isExpired { target = nil }
        return target
    }
}

/// A bound notification target: every binding says whether its target is gone for good, so the sink never has
/// to ask a target what kind it is. A Binoban instance the factory bound weakly expires when the host releases it;
/// a target the host attached is held and never expires.
protocol ExpiringNotificationTarget: BinobanNotificationTarget {
    /// Whether the target is gone for good.
    var isExpired: Bool { get }
}

/// A target the host attached itself: held strongly until it is replaced or detached, so it never expires.
private struct HeldNotificationTarget: ExpiringNotificationTarget {
    let target: any BinobanNotificationTarget

    init(_ target: any BinobanNotificationTarget) {
        self.target = target
    }

    var isExpired: Bool { false }

    func track(name: String, properties: JSONValue) {
        target.track(name: name, properties: properties)
    }

    func setDeviceToken(token: String) {
        target.setDeviceToken(token: token)
    }
}
