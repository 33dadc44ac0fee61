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
    /// `{"name":…,"version":…}`: the SDK's `context.library`.
    private let library: [UInt8]
    /// The static context members other than `library`, in order, each with its encoded value (`device` only
    /// when the provider gave a device member): what a server call's own context members are merged over.
    private let staticMembers: [(key: String, value: [UInt8])]
    /// `"context":{"library":…,…static members…}`, closed: a server call's context when it gives none.
    private let serverContext: [UInt8]
    /// `{…static device members` (not closed): the device of an instance call whose stage gave it context
    /// members, to which the event adds its id and token.
    private let deviceOpen: [UInt8]

    init(context: BinobanStaticContext, deviceId: String?) {
        var library: [UInt8] = []
        library.append(contentsOf: #"{"name":"#.utf8)
        JSONWriter.appendString(Self.libraryName, to: &library)
        library.append(contentsOf: #","version":"#.utf8)
        JSONWriter.appendString(Binoban.version, to: &library)
        library.append(UInt8(ascii: "}"))
        var members: [(key: String, value: [UInt8])] = []
        for (name, fields) in [
            (
                "app",
                [
                    ("name", context.app.name), ("version", context.app.version), ("build", context.app.build),
                    ("namespace", context.app.namespace),
                ]
            ),
            ("os", [("name", context.os.name), ("version", context.os.version)]),
        ] {
            if let object = Self.object(fields) { members.append((name, object)) }
        }
        for (name, value) in [("locale", context.locale), ("timezone", context.timezone)] {
            guard let value else { continue }
            var text: [UInt8] = []
            JSONWriter.appendString(value, to: &text)
            members.append((name, text))
        }
        let device = Self.object([
            ("manufacturer", context.device.manufacturer), ("model", context.device.model),
            ("name", context.device.name), ("type", context.device.type),
        ])

        var prefix: [UInt8] = []
        prefix.append(contentsOf: #""context":{"library":"#.utf8)
        prefix.append(contentsOf: library)
        for member in members { Self.appendMember(member.key, member.value, to: &prefix) }
        var server = prefix
        // The mobile prefix stays open inside `device`, where each event adds its id and token.
        let deviceOpen = Array((device ?? Array("{}".utf8)).dropLast())
        prefix.append(contentsOf: #","device":"#.utf8)
        prefix.append(contentsOf: deviceOpen)
        if let device {
            members.append(("device", device))
            Self.appendMember("device", device, to: &server)
        }
        server.append(UInt8(ascii: "}"))

        contextPrefix = prefix
        deviceHasMembers = device != nil
        self.deviceId = deviceId
        self.library = library
        staticMembers = members
        serverContext = server
        self.deviceOpen = deviceOpen
    }

    /// `{"key":"value",…}` of the members that are present, or `nil` when none is.
    private static func object(_ members: [(String, String?)]) -> [UInt8]? {
        let present = members.compactMap { key, value in value.map { (key, $0) } }
        guard !present.isEmpty else { return nil }
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, member) in present.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(member.0, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONWriter.appendString(member.1, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// `,"key":value` (`value` already encoded).
    private static func appendMember(_ key: String, _ value: [UInt8], to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: ","))
        JSONWriter.appendString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(contentsOf: value)
    }

    /// Appends the JSON object of `event` to `bytes`.
    func encode(_ event: PendingEvent, to bytes: inout [UInt8]) {
        if let fields = event.server {
            appendServerEvent(event, fields, to: &bytes)
            return
        }
        if event.kind != .track, event.kind != .identify {
            // Only server calls have these kinds; one built without fields is encoded with none.
            appendServerEvent(event, PendingEvent.plainServerFields, to: &bytes)
            return
        }
        if event.kind == .track {
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

    /// Everything of a mobile track event after its timestamp under `identity`: the same bytes for every track
    /// event until the identity changes, so an ``EncodingSnapshot`` encodes them once.
    func trackTail(for identity: IdentityState) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(contextPrefix.count + 160)
        appendTail(
            of: PendingEvent(
                kind: .track, name: "", payload: .null, messageId: MessageID(high: 0, low: 0), timestampMillis: 0,
                anonymousId: identity.anonymousId, userId: identity.userId, deviceToken: identity.deviceToken),
            to: &bytes)
        return bytes
    }

    /// Everything after the timestamp: identity, traits and context, and the closing brace.
    private func appendTail(of event: PendingEvent, to bytes: inout [UInt8]) {
        if let anonymousId = event.anonymousId {
            bytes.append(contentsOf: #","anonymousId":"#.utf8)
            UnsortedJSONWriter.appendString(anonymousId, to: &bytes)
        }
        if let userId = event.userId, !EventIdentityRule.isBlank(userId) {
            bytes.append(contentsOf: #","userId":"#.utf8)
            UnsortedJSONWriter.appendString(userId, to: &bytes)
        }
        if event.kind == .identify, let traits = event.payload.objectValue, !traits.isEmpty {
            bytes.append(contentsOf: #","traits":"#.utf8)
            UnsortedJSONWriter.appendValue(event.payload, to: &bytes)
        }
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: contextPrefix)
        appendDeviceIdentity(of: event, to: &bytes)
        bytes.append(contentsOf: "}}".utf8)
    }

    /// The instance's device members of one event, after the static ones (open inside `device`): its id and push
    /// token, and the `device` object's closing brace.
    private func appendDeviceIdentity(of event: PendingEvent, to bytes: inout [UInt8]) {
        if deviceHasMembers { bytes.append(UInt8(ascii: ",")) }
        bytes.append(contentsOf: #""id":"#.utf8)
        UnsortedJSONWriter.appendString(deviceId ?? event.anonymousId ?? "", to: &bytes)
        if let token = event.deviceToken {
            bytes.append(contentsOf: #","token":"#.utf8)
            UnsortedJSONWriter.appendString(token, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Appends the members of a track event that do not depend on the identity or the instance:
    /// `{"type":"track","event":…,"properties":…,"messageId":…,"timestamp":…` (no closing brace), which
    /// ``EncodingSnapshot/trackTail`` completes.
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

    // MARK: Server calls

    /// Appends a server call's event: its spec type and members, the per-call message fields, its own ids, and
    /// the instance's static context with the call's context merged over it (never the instance's device id or
    /// token: the instance is the server, not the person's device).
    private func appendServerEvent(
        _ event: PendingEvent, _ fields: PendingEvent.ServerFields, to bytes: inout [UInt8]
    ) {
        bytes.append(contentsOf: #"{"type":""#.utf8)
        bytes.append(contentsOf: Self.typeName(event.kind).utf8)
        bytes.append(UInt8(ascii: "\""))
        switch event.kind {
        case .track:
            bytes.append(contentsOf: #","event":"#.utf8)
            UnsortedJSONWriter.appendString(event.name, to: &bytes)
            Self.appendObject("properties", event.payload, to: &bytes)
        case .page, .screen:
            if !event.name.isEmpty {
                bytes.append(contentsOf: #","name":"#.utf8)
                UnsortedJSONWriter.appendString(event.name, to: &bytes)
            }
            if let category = fields.category, !category.isEmpty {
                bytes.append(contentsOf: #","category":"#.utf8)
                UnsortedJSONWriter.appendString(category, to: &bytes)
            }
            Self.appendObject("properties", event.payload, to: &bytes)
        case .identify:
            // An instance call leaves out empty traits, as its plain encoding does.
            if !fields.isInstanceCall || event.payload.objectValue?.isEmpty == false {
                Self.appendObject("traits", event.payload, to: &bytes)
            }
        case .group:
            bytes.append(contentsOf: #","groupId":"#.utf8)
            UnsortedJSONWriter.appendString(fields.groupId ?? "", to: &bytes)
            Self.appendObject("traits", event.payload, to: &bytes)
        case .alias:
            bytes.append(contentsOf: #","previousId":"#.utf8)
            UnsortedJSONWriter.appendString(fields.previousId ?? "", to: &bytes)
        }
        if let hostId = fields.messageId {
            bytes.append(contentsOf: #","messageId":"#.utf8)
            UnsortedJSONWriter.appendString(hostId, to: &bytes)
            bytes.append(contentsOf: #","timestamp":""#.utf8)
            ISO8601Timestamp.append(millisecondsSince1970: event.timestampMillis, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        } else {
            Self.appendStamp(messageId: event.messageId, timestampMillis: event.timestampMillis, to: &bytes)
        }
        if let anonymousId = event.anonymousId {
            bytes.append(contentsOf: #","anonymousId":"#.utf8)
            UnsortedJSONWriter.appendString(anonymousId, to: &bytes)
        }
        if let userId = event.userId, event.kind == .alias || !EventIdentityRule.isBlank(userId) {
            bytes.append(contentsOf: #","userId":"#.utf8)
            UnsortedJSONWriter.appendString(userId, to: &bytes)
        }
        if let integrations = fields.integrations {
            bytes.append(contentsOf: #","integrations":"#.utf8)
            UnsortedJSONWriter.appendValue(.object(integrations), to: &bytes)
        }
        bytes.append(UInt8(ascii: ","))
        if fields.isInstanceCall {
            appendInstanceContext(fields.context, of: event, to: &bytes)
        } else {
            appendServerContext(fields.context, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// `"context":{…}` of an instance call that a stage gave context members: the call's members merged over the
    /// instance's whole context as a mobile event carries it (its device with the device id and push token),
    /// each replacing the instance's member of the same name, except `library`, which stays the SDK's.
    private func appendInstanceContext(_ own: [String: JSONValue], of event: PendingEvent, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #""context":{"library":"#.utf8)
        bytes.append(contentsOf: library)
        for member in staticMembers where member.key != "device" && own[member.key] == nil {
            Self.appendMember(member.key, member.value, to: &bytes)
        }
        if own["device"] == nil {
            bytes.append(contentsOf: #","device":"#.utf8)
            bytes.append(contentsOf: deviceOpen)
            appendDeviceIdentity(of: event, to: &bytes)
        }
        for (key, value) in own where key != "library" {
            bytes.append(UInt8(ascii: ","))
            UnsortedJSONWriter.appendString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            UnsortedJSONWriter.appendValue(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// `"context":{…}`: `library` (always the SDK's), each static member the call does not replace, then the
    /// call's own members.
    private func appendServerContext(_ own: [String: JSONValue], to bytes: inout [UInt8]) {
        guard !own.isEmpty, own.count > 1 || own["library"] == nil else {
            bytes.append(contentsOf: serverContext)
            return
        }
        bytes.append(contentsOf: #""context":{"library":"#.utf8)
        bytes.append(contentsOf: library)
        for member in staticMembers where own[member.key] == nil {
            Self.appendMember(member.key, member.value, to: &bytes)
        }
        for (key, value) in own where key != "library" {
            bytes.append(UInt8(ascii: ","))
            UnsortedJSONWriter.appendString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            UnsortedJSONWriter.appendValue(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// `,"key":{…}`: `value` when it is an object, else `{}`.
    private static func appendObject(_ key: String, _ value: JSONValue, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: ","))
        UnsortedJSONWriter.appendString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        if case .object = value {
            UnsortedJSONWriter.appendValue(value, to: &bytes)
        } else {
            bytes.append(contentsOf: "{}".utf8)
        }
    }

    /// The spec's `type` of `kind`.
    static func typeName(_ kind: PendingEvent.Kind) -> String {
        switch kind {
        case .track: "track"
        case .identify: "identify"
        case .page: "page"
        case .screen: "screen"
        case .group: "group"
        case .alias: "alias"
        }
    }

    /// The encoded event as `Data`.
    func encode(_ event: PendingEvent) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(contextPrefix.count + 256)
        encode(event, to: &bytes)
        return Data(bytes)
    }
}
