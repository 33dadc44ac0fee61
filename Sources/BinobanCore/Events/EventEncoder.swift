#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Encodes events as compact JSON in the Segment tracking-API shape, by hand.
///
/// Everything that is the same for every event of an instance (library, app, os, locale, timezone, the
/// static device fields) is encoded once at creation. An event carries only what an ingest reads
/// (Decision 0212): no `_metadata` (device-mode destination bookkeeping, always empty here), no empty
/// `integrations`, no per-instance `instanceId`, and no empty `context` member.
struct EventEncoder: Sendable {
    /// The library name sent in `context.library.name`.
    static let libraryName = "binoban-core-swift"

    /// `"context":{…static members…,"device":{…static device members` (no closing braces).
    private let contextPrefix: [UInt8]
    /// Whether any static device member was written (so the next one needs a comma).
    private let deviceHasMembers: Bool
    /// The persisted device id, or `nil` to use each event's anonymousId.
    private let deviceId: String?

    init(context: BinobanStaticContext, deviceId: String?) {
        var bytes: [UInt8] = []
        bytes.append(contentsOf: #""context":{"library":{"name":"#.utf8)
        JSONWriter.appendString(Self.libraryName, to: &bytes)
        bytes.append(contentsOf: #","version":"#.utf8)
        JSONWriter.appendString(Binoban.version, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        Self.appendObject(
            "app",
            [
                ("name", context.app.name), ("version", context.app.version), ("build", context.app.build),
                ("namespace", context.app.namespace),
            ],
            to: &bytes
        )
        Self.appendObject("os", [("name", context.os.name), ("version", context.os.version)], to: &bytes)
        if let locale = context.locale {
            bytes.append(contentsOf: #","locale":"#.utf8)
            JSONWriter.appendString(locale, to: &bytes)
        }
        if let timezone = context.timezone {
            bytes.append(contentsOf: #","timezone":"#.utf8)
            JSONWriter.appendString(timezone, to: &bytes)
        }
        bytes.append(contentsOf: #","device":{"#.utf8)
        var wrote = false
        for (key, value) in [
            ("manufacturer", context.device.manufacturer), ("model", context.device.model),
            ("name", context.device.name), ("type", context.device.type),
        ] {
            guard let value else { continue }
            if wrote { bytes.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONWriter.appendString(value, to: &bytes)
            wrote = true
        }
        contextPrefix = bytes
        deviceHasMembers = wrote
        self.deviceId = deviceId
    }

    private static func appendObject(_ name: String, _ members: [(String, String?)], to bytes: inout [UInt8]) {
        let present = members.compactMap { key, value in value.map { (key, $0) } }
        guard !present.isEmpty else { return }
        bytes.append(UInt8(ascii: ","))
        JSONWriter.appendString(name, to: &bytes)
        bytes.append(contentsOf: ":{".utf8)
        for (index, member) in present.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(member.0, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONWriter.appendString(member.1, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Appends the JSON object of `event` to `bytes`.
    func encode(_ event: PendingEvent, to bytes: inout [UInt8]) {
        if let head = event.encodedHead {
            bytes.append(contentsOf: head)
            if event.encodedWhole { return }
        } else if event.kind == .track {
            Self.appendTrackHead(
                name: event.name, properties: event.payload, messageId: event.messageId,
                timestampMillis: event.timestampMillis, to: &bytes)
        } else {
            bytes.append(contentsOf: #"{"type":"identify""#.utf8)
            Self.appendStamp(
                messageId: event.messageId, timestampMillis: event.timestampMillis, to: &bytes)
        }
        appendTail(of: event, to: &bytes)
    }

    /// Completes an event whose caller encoded its head: appends the identity and the instance's context to
    /// ``PendingEvent/encodedHead``, which then holds the whole object. Runs inside the intake's lock, where
    /// the event is stamped, so it is kept to copying a few strings.
    func completeHead(of event: inout PendingEvent) {
        guard var bytes = event.encodedHead, !event.encodedWhole else { return }
        event.encodedHead = nil
        bytes.reserveCapacity(bytes.count + contextPrefix.count + 160)
        appendTail(of: event, to: &bytes)
        event.encodedHead = bytes
        event.encodedWhole = true
    }

    /// Everything after the timestamp: identity, traits and context, and the closing brace.
    private func appendTail(of event: PendingEvent, to bytes: inout [UInt8]) {
        if let anonymousId = event.anonymousId {
            bytes.append(contentsOf: #","anonymousId":"#.utf8)
            UnsortedJSONWriter.appendString(anonymousId, to: &bytes)
        }
        if let userId = event.userId, !userId.trimmingWhitespace().isEmpty {
            bytes.append(contentsOf: #","userId":"#.utf8)
            UnsortedJSONWriter.appendString(userId, to: &bytes)
        }
        if event.kind == .identify, let traits = event.payload.objectValue, !traits.isEmpty {
            bytes.append(contentsOf: #","traits":"#.utf8)
            UnsortedJSONWriter.appendValue(event.payload, to: &bytes)
        }
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: contextPrefix)
        if deviceHasMembers { bytes.append(UInt8(ascii: ",")) }
        bytes.append(contentsOf: #""id":"#.utf8)
        UnsortedJSONWriter.appendString(deviceId ?? event.anonymousId ?? "", to: &bytes)
        if let token = event.deviceToken {
            bytes.append(contentsOf: #","token":"#.utf8)
            UnsortedJSONWriter.appendString(token, to: &bytes)
        }
        bytes.append(contentsOf: "}}}".utf8)
    }

    /// Appends the members of a track event that do not depend on the identity or the instance:
    /// `{"type":"track","event":…,"properties":…,"messageId":…,"timestamp":…` (no closing brace). A caller encodes
    /// this itself when the write stage is deep (``PendingEvent/encodedHead``).
    static func appendTrackHead(
        name: String, properties: JSONValue, messageId: MessageID, timestampMillis: Int64, to bytes: inout [UInt8]
    ) {
        bytes.append(contentsOf: #"{"type":"track","event":"#.utf8)
        UnsortedJSONWriter.appendString(name, to: &bytes)
        bytes.append(contentsOf: #","properties":"#.utf8)
        if case .object = properties {
            UnsortedJSONWriter.appendValue(properties, to: &bytes)
        } else {
            bytes.append(contentsOf: "{}".utf8)
        }
        appendStamp(messageId: messageId, timestampMillis: timestampMillis, to: &bytes)
    }

    private static func appendStamp(
        messageId: MessageID, timestampMillis: Int64, to bytes: inout [UInt8]
    ) {
        bytes.append(contentsOf: #","messageId":""#.utf8)
        messageId.append(to: &bytes)
        bytes.append(contentsOf: #"","timestamp":""#.utf8)
        ISO8601Timestamp.append(millisecondsSince1970: timestampMillis, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// The encoded event as `Data`.
    func encode(_ event: PendingEvent) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(contextPrefix.count + 256)
        encode(event, to: &bytes)
        return Data(bytes)
    }
}
