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
/// is delivered right after the handler returns. So a handler needs no `Sendable` conformance and no lock.
public final class NotificationInteractionManager: Sendable {
    /// The manager of ``BinobanNotifications/shared``.
    public static let shared = BinobanNotifications.shared.interactionManager

    /// Owns a handler. Unchecked because handlers are not `Sendable`: the box is created from a `sending` value
    /// and its handler is only called by the single delivering thread (``State/delivering``), whose turns are
    /// ordered by the manager's lock.
    private final class HandlerBox: @unchecked Sendable {
        let handler: any NotificationInteractionHandler

        init(_ handler: sending any NotificationInteractionHandler) {
            self.handler = handler
        }
    }

    private struct State: Sendable {
        var appHandler: HandlerBox?
        var replay: DropOldestBuffer<NotificationInteraction>
        /// Interactions waiting for delivery, with the handler chosen when each was dispatched.
        var inbox: [(HandlerBox, NotificationInteraction)] = []
        var inboxHead = 0
        /// Whether a thread is delivering the inbox.
        var delivering = false
    }

    private let defaultHandler: HandlerBox
    private let state: LockedValue<State>

    init(defaultHandler: sending DefaultNotificationInteractionHandler, replayCapacity: Int) {
        self.defaultHandler = HandlerBox(defaultHandler)
        state = LockedValue(State(appHandler: nil, replay: DropOldestBuffer(capacity: replayCapacity)))
    }

    /// Installs `handler`; later interactions go to it instead of the default handler.
    ///
    /// The handler is `sending`: the manager owns it from now on (a `Sendable` handler can still be shared).
    /// Buffered interactions stay buffered until ``drainPendingInteractions()``.
    public func setHandler(handler: sending any NotificationInteractionHandler) {
        let isDefault = (handler as AnyObject) === defaultHandler.handler as AnyObject
        let box = isDefault ? nil : HandlerBox(handler)
        state.withLock { $0.appHandler = box }
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
            let handler: HandlerBox
            if let appHandler = state.appHandler {
                handler = appHandler
            } else {
                state.replay.append(interaction)
                handler = defaultHandler
            }
            state.inbox.append((handler, interaction))
            if state.delivering { return false }
            state.delivering = true
            return true
        }
        guard shouldDeliver else { return }
        while let (handler, next) = nextDelivery() {
            handler.handler.onNotificationInteraction(interaction: next)
        }
    }

    /// The next queued delivery, or `nil` (and the delivering turn ends) when the inbox is empty.
    private func nextDelivery() -> (HandlerBox, NotificationInteraction)? {
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
