#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The message fields a server call may set for one event, as every server analytics client takes them: its
/// time, its id, its context and its integrations. Every field defaults to what the SDK sends without it.
///
/// ```swift
/// binoban.server.track(
///     name: "Order Completed", properties: ["total": 49.99],
///     as: BinobanEventIdentity(userId: "user-1"),
///     fields: BinobanMessageFields(
///         timestamp: Date(timeIntervalSince1970: 1_767_323_045.678),
///         messageId: "order-1001-completed",
///         context: ["ip": "203.0.113.7", "userAgent": "Mozilla/5.0"],
///         integrations: ["All": false, "Mixpanel": true]))
/// ```
public struct BinobanMessageFields: Sendable, Hashable {
    /// When the event happened (imports, replays, queued work), sent as `timestamp` in milliseconds, truncated;
    /// `nil` stamps it with the instance's wall clock when the call is made. A date outside years 0000 to 9999
    /// is clamped to the nearest of those bounds.
    public var timestamp: Date?
    /// The event's `messageId`, for an ingest that deduplicates a host's retries, sent as given (JSON-escaped);
    /// `nil` or blank generates a random UUID as for every other event.
    public var messageId: String?
    /// Members merged over the instance's `context`: each replaces the instance's member of the same name whole
    /// (`device` too: the instance's `device` object is then not sent), except `library`, which always names
    /// this SDK. Empty: the instance's context alone.
    public var context: [String: JSONValue]
    /// The event's `integrations` object (which destinations receive it), sent when given; `nil` sends none,
    /// which an ingest reads as default routing, as it does `{}`.
    public var integrations: [String: JSONValue]?

    /// Creates the fields; each defaults to what the SDK sends without it.
    public init(
        timestamp: Date? = nil, messageId: String? = nil, context: [String: JSONValue] = [:],
        integrations: [String: JSONValue]? = nil
    ) {
        self.timestamp = timestamp
        self.messageId = messageId
        self.context = context
        self.integrations = integrations
    }

    /// ``timestamp`` in milliseconds since 1970, truncated and clamped as `ISO8601Timestamp` writes it.
    ///
    /// A `Date` holds most milliseconds only approximately (`.678` may be kept as `.67799997`), so a time less
    /// than half a microsecond below a millisecond counts as that millisecond. The fraction of the second is
    /// taken apart from the whole seconds, so the rounding of a large product cannot move the result.
    var timestampMillis: Int64? {
        guard let timestamp else { return nil }
        let seconds = timestamp.timeIntervalSince1970
        guard !seconds.isNaN else { return 0 }
        let earliest = Double(ISO8601Timestamp.earliestMillisecondsSince1970)
        let latest = Double(ISO8601Timestamp.latestMillisecondsSince1970)
        guard seconds.isFinite else { return Int64(seconds < 0 ? earliest : latest) }
        let whole = seconds.rounded(.down)
        let milliseconds = whole * 1_000 + ((seconds - whole) * 1_000 + 0.000_5).rounded(.down)
        return Int64(min(max(milliseconds, earliest), latest))
    }

    /// The host's message id, unless it is blank.
    var hostMessageId: String? {
        guard let messageId, !messageId.trimmingWhitespace().isEmpty else { return nil }
        return messageId
    }
}
