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
/// Thread-safe: handlers may be installed, and interactions dispatched, from any task or thread. Handlers are
/// called one interaction at a time, in dispatch order, never concurrently and never inside a lock: a forward
/// that arrives while another thread is delivering is handed to that thread, and one made from inside a handler
/// is delivered right after the handler returns. So a handler needs no `Sendable` conformance and no lock for
/// the SDK's calls. It runs on the thread of the forward that delivers it — in an app, the main thread the
/// `UNUserNotificationCenterDelegate` callbacks arrive on — so an app that keeps a reference to its handler
/// reads what it routed there.
public final class NotificationInteractionManager: Sendable {
    /// The manager of ``BinobanNotifications/shared``.
    public static let shared = BinobanNotifications.shared.interactionManager

    /// The manager's state, handlers included. Handlers are not `Sendable`, so neither is this: it lives only
    /// inside the manager's lock, and a handler taken out of it is called only by the single delivering thread
    /// (``delivering``), whose turns the lock orders (Docs/Decisions/0405).
    private struct State {
        let defaultHandler: any NotificationInteractionHandler
        var appHandler: (any NotificationInteractionHandler)?
        var replay: DropOldestBuffer<NotificationInteraction>
        /// Interactions waiting for delivery, with the handler chosen when each was dispatched.
        var inbox: [(any NotificationInteractionHandler, NotificationInteraction)] = []
        var inboxHead = 0
        /// Whether a thread is delivering the inbox.
        var delivering = false
    }

    private let state: LockedValue<State>

    init(defaultHandler: DefaultNotificationInteractionHandler, replayCapacity: Int) {
        state = LockedValue(
            State(defaultHandler: defaultHandler, appHandler: nil, replay: DropOldestBuffer(capacity: replayCapacity)))
    }

    /// Installs `handler`; later interactions go to it instead of the default handler.
    ///
    /// The app may keep its own reference to the handler (to read what it routed) and install the same one
    /// again: the manager calls it one interaction at a time, on the thread of the forward that delivers it.
    /// Installing the manager's own default handler is the same as ``resetToDefault()``. Buffered interactions
    /// stay buffered until ``drainPendingInteractions()``.
    public func setHandler(handler: any NotificationInteractionHandler) {
        state.withLock { state in
            let isDefault = (handler as AnyObject) === (state.defaultHandler as AnyObject)
            state.appHandler = isDefault ? nil : handler
        }
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
    /// the installed handler, one interaction at a time.
    func dispatch(_ interaction: NotificationInteraction) {
        let shouldDeliver = state.withLock { state -> Bool in
            let handler: any NotificationInteractionHandler
            if let appHandler = state.appHandler {
                handler = appHandler
            } else {
                state.replay.append(interaction)
                handler = state.defaultHandler
            }
            state.inbox.append((handler, interaction))
            if state.delivering { return false }
            state.delivering = true
            return true
        }
        guard shouldDeliver else { return }
        while let (handler, next) = nextDelivery() {
            handler.onNotificationInteraction(interaction: next)
        }
    }

    /// The next queued delivery, or `nil` (and the delivering turn ends) when the inbox is empty.
    private func nextDelivery() -> (any NotificationInteractionHandler, NotificationInteraction)? {
        state.withLock { state in
            guard state.inboxHead < state.inbox.count else {
                state.inbox.removeAll(keepingCapacity: true)
                state.inboxHead = 0
                state.delivering = false
                return nil
            }
            defer { state.inboxHead += 1 }
            return state.inbox[state.inboxHead]
        }
    }
}
