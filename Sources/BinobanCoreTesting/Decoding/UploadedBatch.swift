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
    /// `track` or `identify`.
    public var type: String
    /// The event name (track).
    public var event: String?
    /// The properties (track).
    public var properties: JSONValue?
    /// The traits (identify, omitted when empty).
    public var traits: JSONValue?
    /// The message id.
    public var messageId: String
    /// The timestamp.
    public var timestamp: String
    /// The anonymous id.
    public var anonymousId: String
    /// The user id (omitted when blank).
    public var userId: String?
    /// The context.
    public var context: JSONValue
    /// `integrations`; `nil`, since the SDK leaves the empty object out (Decision 0212).
    public var integrations: JSONValue?
    /// `_metadata`; `nil`, since the SDK no longer sends the always-empty destination lists (Decision 0212).
    public var metadata: JSONValue?

    private enum CodingKeys: String, CodingKey {
        case type, event, properties, traits, messageId, timestamp, anonymousId, userId, context, integrations
        case metadata = "_metadata"
    }
}
