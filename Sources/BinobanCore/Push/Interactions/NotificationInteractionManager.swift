/// Routes every notification interaction to the installed handler, and keeps a short replay of what fired
/// before the app installed its own.
///
/// Every interaction goes through one dispatch. While the default handler is installed, the interaction is
/// also appended to a replay buffer (16 by default, oldest dropped) so that an app whose handler was not yet
/// installed — a cold start from a tap — can ``drainPendingInteractions()`` once afterwards. Interactions that
/// reached an app handler are not buffered, so draining never hands them over twice.
///
/// ```swift
/// NotificationInteractionManager.shared.setHandler(handler: AppInteractionHandler())
/// for interaction in NotificationInteractionManager.shared.drainPendingInteractions() {
///     route(interaction)  // already tracked: do not track again
/// }
/// ```
///
/// Thread-safe: handlers may be installed, and interactions dispatched, from any task or thread. The handler
/// is always called after the manager's lock is released.
public final class NotificationInteractionManager: Sendable {
    /// The manager of ``BinobanNotifications/shared``.
    public static let shared = BinobanNotifications.shared.interactionManager

    private struct State: Sendable {
        var appHandler: (any NotificationInteractionHandler)?
        var replay: DropOldestBuffer<NotificationInteraction>
    }

    private let defaultHandler: DefaultNotificationInteractionHandler
    private let state: LockedValue<State>

    init(defaultHandler: DefaultNotificationInteractionHandler, replayCapacity: Int) {
        self.defaultHandler = defaultHandler
        state = LockedValue(State(appHandler: nil, replay: DropOldestBuffer(capacity: replayCapacity)))
    }

    /// Installs `handler`; later interactions go to it instead of the default handler.
    ///
    /// Buffered interactions stay buffered until ``drainPendingInteractions()``.
    public func setHandler(handler: any NotificationInteractionHandler) {
        let isDefault = (handler as AnyObject) === defaultHandler
        state.withLock { $0.appHandler = isDefault ? nil : handler }
    }

    /// Restores the default, tracking-only handler.
    public func resetToDefault() {
        state.withLock { $0.appHandler = nil }
    }

    /// Returns the interactions dispatched while the default handler was installed, oldest first, and forgets
    /// them: a second call returns only what arrived since.
    ///
    /// Delivery-only: these interactions were already tracked; nothing here tracks them again.
    public func drainPendingInteractions() -> [NotificationInteraction] {
        state.withLock { $0.replay.removeAll() }
    }

    /// The single path of every interaction: buffer it if the default handler is installed, then hand it to
    /// the installed handler.
    func dispatch(_ interaction: NotificationInteraction) {
        let handler = state.withLock { state -> any NotificationInteractionHandler in
            if let appHandler = state.appHandler { return appHandler }
            state.replay.append(interaction)
            return defaultHandler
        }
        handler.onNotificationInteraction(interaction: interaction)
    }
}
