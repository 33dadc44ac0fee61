#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An uploaded body decoded with `JSONDecoder`: the Segment batch envelope.
public struct UploadedBatch: Sendable, Hashable, Decodable {
    /// The events.
    public var batch: [UploadedEvent]
    /// When the batch was sent (UTC ISO-8601 with milliseconds).
    public var sentAt: String
    /// The source identifier.
    public var writeKey: String

    /// Decodes a request body; a gzip body (``GzipBody/isCompressed(_:)``) is decompressed first.
    public static func decode(_ body: Data) throws -> UploadedBatch {
        let json = GzipBody.isCompressed(body) ? try GzipBody.decompress(body) : body
        return try JSONDecoder().decode(UploadedBatch.self, from: json)
    }
}

/// One uploaded event, decoded with `JSONDecoder`; optional fields are `nil` when absent from the JSON.
public struct UploadedEvent: Sendable, Hashable, Decodable {
    /// The spec type: `track`, `identify`, `page`, `screen`, `group` or `alias`.
    public var type: String
    /// The event name (track).
    public var event: String?
    /// The page or screen name (page, screen; omitted when not given).
    public var name: String?
    /// The page or screen category (page, screen; omitted when not given).
    public var category: String?
    /// The properties (track, page, screen).
    public var properties: JSONValue?
    /// The traits (identify, group; a mobile identify omits them when empty).
    public var traits: JSONValue?
    /// The group's id (group).
    public var groupId: String?
    /// The previous id (alias).
    public var previousId: String?
    /// The message id.
    public var messageId: String
    /// The timestamp.
    public var timestamp: String
    /// The anonymous id; `nil` for a server call with a userId only, and for alias.
    public var anonymousId: String?
    /// The user id (omitted when blank).
    public var userId: String?
    /// The context.
    public var context: JSONValue
    /// `integrations`; `nil`, since the SDK leaves the empty object out (Decision 0212).
    public var integrations: JSONValue?
    /// `_metadata`; `nil`, since the SDK no longer sends the always-empty destination lists (Decision 0212).
    public var metadata: JSONValue?

    private enum CodingKeys: String, CodingKey {
        case type, event, name, category, properties, traits, groupId, previousId, messageId, timestamp, anonymousId
        case userId, context, integrations
        case metadata = "_metadata"
    }
}
