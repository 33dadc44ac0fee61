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
    /// The kind of call that recorded the event.
    public enum Kind: Sendable, Hashable {
        /// `track(name:properties:)`: ``BinobanEvent/name`` is the event name.
        case track
        /// `identify(userId:traits:)`: ``BinobanEvent/properties`` holds the traits.
        case identify
    }

    /// The kind of call; sent as `type`.
    public let type: Kind
    /// The event name of a track event (empty for the others).
    public var name: String
    /// The properties of a track event, or the traits of an identify event (a JSON object; anything else is
    /// sent as `{}`).
    public var properties: JSONValue
    /// The event's id, sent as `messageId`.
    public let messageId: String
    /// When the event happened, sent as `timestamp` (millisecond precision).
    public var timestamp: Date
    /// The anonymous id the event carries.
    public var anonymousId: String
    /// The user id the event carries, if any (a blank one is omitted).
    public var userId: String?

    /// Creates an event value (for tests of a stage; the pipeline makes the ones a stage sees).
    public init(
        type: Kind, name: String, properties: JSONValue, messageId: String, timestamp: Date, anonymousId: String,
        userId: String?
    ) {
        self.type = type
        self.name = name
        self.properties = properties
        self.messageId = messageId
        self.timestamp = timestamp
        self.anonymousId = anonymousId
        self.userId = userId
    }
}
