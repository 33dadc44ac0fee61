/// One call in structured form, stamped on the caller's thread: what ``EventEncoder`` encodes, and what the host's
/// before-send stages see (as a ``BinobanEvent``).
///
/// It carries the identity of the moment it was accepted, so a `reset()` or `identify()` right after does not
/// change it. Usually its caller encodes it at once (``QueuedEvent/encoded(_:)``); it stays structured in the
/// intake only while stages are installed or before the pipeline runs (``QueuedEvent/structured(_:)``).
///
/// A server call (``BinobanServerEvents``) carries what its caller gave beyond a mobile event in ``server``, one
/// reference that is `nil` for every mobile event, so `track()` pays nothing for the server's fields.
struct PendingEvent: Sendable {
    /// The Segment spec type of the event (its `type` member).
    enum Kind: Sendable {
        case track
        case identify
        case page
        case screen
        case group
        case alias
    }

    var kind: Kind
    /// The event name (track), or the page or screen name (page, screen; empty = none). Unused otherwise.
    var name: String
    /// `properties` (track, page, screen) or `traits` (identify, group). Unused by alias.
    var payload: JSONValue
    /// The generated id; a server call's host id, when it gave one, is ``ServerFields/messageId``.
    var messageId: MessageID
    var timestampMillis: Int64
    /// `nil` only for a server call whose caller gave a userId but no anonymousId (and for alias): the key is
    /// then not sent, rather than one instance-wide anonymousId shared by every user.
    var anonymousId: String?
    var userId: String?
    /// The instance's push token (mobile events only: a server call never carries the instance's device).
    var deviceToken: String?
    /// What a server call gave beyond a mobile event; `nil` for every mobile event.
    var server: ServerFields? = nil

    /// The members of a server call that a mobile event never has. Immutable and shared: a copy of the event
    /// copies one reference.
    final class ServerFields: Sendable {
        /// The host's `messageId` (sent JSON-escaped), or `nil` for the generated ``PendingEvent/messageId``.
        let messageId: String?
        /// The per-call `context` members, merged over the instance's: each replaces the instance's member of
        /// the same name, except `library`, which stays the SDK's. Empty: the instance's context alone.
        let context: [String: JSONValue]
        /// The `integrations` object, sent when given.
        let integrations: [String: JSONValue]?
        /// The page or screen `category`, when given.
        let category: String?
        /// The group's `groupId` (group only).
        let groupId: String?
        /// The alias's `previousId` (alias only).
        let previousId: String?
        /// A caller awaits this event's outcome (``BinobanServerEvents/awaitingDelivery``).
        let isAwaited: Bool
        /// The event comes from an instance call (`binoban.track`, not a server call) to which a before-send
        /// stage gave server-call fields: its ``context`` is merged over the instance's whole context, the
        /// instance's device id and push token included, as a mobile event carries them.
        let isInstanceCall: Bool

        init(
            messageId: String? = nil, context: [String: JSONValue] = [:], integrations: [String: JSONValue]? = nil,
            category: String? = nil, groupId: String? = nil, previousId: String? = nil, isAwaited: Bool = false,
            isInstanceCall: Bool = false
        ) {
            self.isAwaited = isAwaited
            self.isInstanceCall = isInstanceCall
            self.messageId = messageId
            self.context = context
            self.integrations = integrations
            self.category = category
            self.groupId = groupId
            self.previousId = previousId
        }
    }

    /// What a server call that gave nothing beyond a mobile event's members carries: shared, so such a call
    /// allocates no fields of its own.
    static let plainServerFields = ServerFields()
    /// The same for an awaited call.
    static let plainAwaitedServerFields = ServerFields(isAwaited: true)

    /// A server call's fields: the shared plain ones when it gave none of them.
    static func serverFields(
        messageId: String?, context: [String: JSONValue], integrations: [String: JSONValue]?, category: String?,
        groupId: String?, previousId: String?, isAwaited: Bool
    ) -> ServerFields {
        if messageId == nil, context.isEmpty, integrations == nil, category == nil, groupId == nil, previousId == nil {
            return isAwaited ? plainAwaitedServerFields : plainServerFields
        }
        return ServerFields(
            messageId: messageId, context: context, integrations: integrations, category: category, groupId: groupId,
            previousId: previousId, isAwaited: isAwaited)
    }

    /// The `messageId` as sent: the host's, or the generated one's 36 characters.
    var messageIdText: String { server?.messageId ?? messageId.text }
}
