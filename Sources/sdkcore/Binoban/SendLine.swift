import BinobanCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One valid input line of `sdkcore binoban send`, ready to hand to the instance.
struct SendLine: Sendable, Hashable {
    /// Which call the line becomes.
    enum Kind: String, Sendable, Hashable {
        case track, identify, screen
    }

    /// Which call the line becomes.
    var kind: Kind
    /// The event name (track) or the screen title (screen); empty for identify.
    var name: String
    /// `properties` (track, screen) or `traits` (identify); an object.
    var payload: JSONValue
    /// The per-line userId, if any.
    var userId: String?
    /// The per-line anonymousId, if any (track and screen only).
    var anonymousId: String?
    /// The event time in milliseconds since 1970, when the line gives one.
    var timestampMillis: Int64?

    /// Why a line was refused: the message names the field.
    struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        var description: String
    }

    static let allowedFields: Set<String> = [
        "type", "name", "event", "properties", "traits", "userId", "anonymousId", "timestamp",
    ]

    /// Parses one line of text (already known to be non-blank).
    static func parse(_ text: Substring) throws(Problem) -> SendLine {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: String(text), limits: JSONParsingLimits(maximumBytes: 1 << 20))
        } catch {
            throw Problem(description: "not valid JSON")
        }
        guard let object = value.objectValue else { throw Problem(description: "a line must be a JSON object") }
        if let unknown = object.keys.filter({ !allowedFields.contains($0) }).sorted().first {
            throw Problem(
                description: "unknown field \"\(unknown)\" (allowed: \(allowedFields.sorted().joined(separator: ", ")))"
            )
        }
        guard let typeValue = object["type"] else {
            throw Problem(description: "type: is required (track, identify or screen)")
        }
        guard let typeName = typeValue.stringValue, let kind = Kind(rawValue: typeName) else {
            throw Problem(description: "type: expected \"track\", \"identify\" or \"screen\", found \(typeValue)")
        }
        var line = SendLine(kind: kind, name: "", payload: [:])
        line.userId = try optionalString(object, "userId")
        line.anonymousId = try optionalString(object, "anonymousId")
        line.timestampMillis = try timestamp(object["timestamp"])
        switch kind {
        case .track, .screen:
            if object["traits"] != nil { throw Problem(description: "traits: only for identify (use properties)") }
            if object["name"] != nil, object["event"] != nil {
                throw Problem(description: "give either name or event, not both")
            }
            var name = try optionalString(object, "name")
            if name == nil { name = try optionalString(object, "event") }
            guard let name, !name.allSatisfy(\.isWhitespace) else {
                throw Problem(
                    description: "name: is required for \(kind.rawValue) (a non-empty string; \"event\" also works)")
            }
            line.name = name
            line.payload = try payloadObject(object, "properties")
        case .identify:
            if object["properties"] != nil {
                throw Problem(description: "properties: only for track and screen (use traits)")
            }
            if object["name"] != nil || object["event"] != nil {
                throw Problem(description: "name/event: identify has no name")
            }
            if line.anonymousId != nil {
                throw Problem(
                    description: "anonymousId: not supported on identify (identify changes the tool's own identity)")
            }
            line.payload = try payloadObject(object, "traits")
        }
        return line
    }

    private static func optionalString(_ object: [String: JSONValue], _ key: String) throws(Problem) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let string = value.stringValue else {
            throw Problem(description: "\(key): expected a string, found \(value)")
        }
        return string
    }

    private static func payloadObject(_ object: [String: JSONValue], _ key: String) throws(Problem) -> JSONValue {
        guard let value = object[key], !value.isNull else { return [:] }
        guard value.objectValue != nil else { throw Problem(description: "\(key): expected an object, found \(value)") }
        return value
    }

    /// An ISO-8601 string (`2026-08-02T12:00:00Z`, fractional seconds allowed) or whole milliseconds since 1970.
    private static func timestamp(_ value: JSONValue?) throws(Problem) -> Int64? {
        guard let value, !value.isNull else { return nil }
        if case .int(let milliseconds) = value, milliseconds >= 0 { return Int64(milliseconds) }
        if let text = value.stringValue {
            let styles = [
                Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle(),
            ]
            for style in styles {
                if let date = try? style.parse(text) {
                    return Int64((date.timeIntervalSince1970 * 1000).rounded())
                }
            }
        }
        throw Problem(
            description: "timestamp: expected an ISO-8601 time such as \"2026-08-02T12:00:00.000Z\" or whole "
                + "milliseconds since 1970, found \(value)")
    }
}
