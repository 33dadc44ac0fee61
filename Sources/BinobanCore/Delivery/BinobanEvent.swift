#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One event as a before-send stage sees it (``BinobanEventStage``): the call's fields in structured form, before
/// the instance's context is added and the event is encoded.
///
/// A stage may change any field but ``messageId``, which names the event to the delivery observer and to a caller
/// awaiting its outcome.
public struct BinobanEvent: Sendable, Hashable {
    /// The kind of call that recorded the event: its Segment spec `type`.
    public enum Kind: Sendable, Hashable {
        /// `track`: ``BinobanEvent/name`` is the event name.
        case track
        /// `identify`: ``BinobanEvent/properties`` holds the traits.
        case identify
        /// `server.page`: ``BinobanEvent/name`` is the page name (empty: none).
        case page
        /// `server.screen`: ``BinobanEvent/name`` is the screen name (empty: none).
        case screen
        /// `server.group`: ``BinobanEvent/properties`` holds the group's traits.
        case group
        /// `server.alias`: ``BinobanEvent/previousId`` is the id being aliased.
        case alias
    }

    /// The kind of call; sent as `type`.
    public let type: Kind
    /// The event name (track), or the page or screen name (page, screen); empty for the others.
    public var name: String
    /// The properties (track, page, screen) or traits (identify, group): a JSON object; anything else is sent as
    /// `{}`. Unused by alias.
    public var properties: JSONValue
    /// The event's id, sent as `messageId`: the host's for a server call that gave one, else the generated one.
    public let messageId: String
    /// When the event happened, sent as `timestamp` (millisecond precision).
    public var timestamp: Date
    /// The anonymous id the event carries; `nil` sends none (a server call for a user id alone).
    public var anonymousId: String?
    /// The user id the event carries, if any (a blank one is omitted).
    public var userId: String?
    /// The call's own `context` members, merged over the instance's when the event is encoded (each replaces the
    /// instance's member of the same name, except `library`). Empty for mobile calls.
    public var context: [String: JSONValue]
    /// The call's `integrations` object, sent when not `nil`.
    public var integrations: [String: JSONValue]?
    /// The page or screen `category`, when given.
    public var category: String?
    /// The group's id (group calls).
    public var groupId: String?
    /// The previous id (alias calls).
    public var previousId: String?

    /// Creates an event value (for tests of a stage; the pipeline makes the ones a stage sees).
    public init(
        type: Kind, name: String = "", properties: JSONValue = [:], messageId: String, timestamp: Date,
        anonymousId: String?, userId: String? = nil, context: [String: JSONValue] = [:],
        integrations: [String: JSONValue]? = nil, category: String? = nil, groupId: String? = nil,
        previousId: String? = nil
    ) {
        self.type = type
        self.name = name
        self.properties = properties
        self.messageId = messageId
        self.timestamp = timestamp
        self.anonymousId = anonymousId
        self.userId = userId
        self.context = context
        self.integrations = integrations
        self.category = category
        self.groupId = groupId
        self.previousId = previousId
    }
}
