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

    /// Parses one line (its bytes without the newline; already known to be non-blank). The problems name fields
    /// and the kind of value found, never the value.
    static func parse(_ bytes: [UInt8]) throws(Problem) -> SendLine {
        let value: JSONValue
        do {
            value = try JSONValue(
                parsing: Data(bytes), limits: JSONParsingLimits(maximumBytes: SendCommandLimits.maximumLineBytes))
        } catch {
            throw Problem(description: syntaxProblem(error, in: bytes))
        }
        guard let object = value.objectValue else {
            throw Problem(description: "a line must be a JSON object, found \(kindName(of: value))")
        }
        if let unknown = object.keys.filter({ !allowedFields.contains($0) }).sorted().first {
            throw Problem(
                description:
                    "unknown field \(fieldName(unknown)) (allowed: \(allowedFields.sorted().joined(separator: ", ")))"
            )
        }
        guard let typeValue = object["type"] else {
            throw Problem(description: "type: is required (track, identify or screen)")
        }
        guard let typeName = typeValue.stringValue, let kind = Kind(rawValue: typeName) else {
            let found = typeValue.stringValue == nil ? kindName(of: typeValue) : "a different string"
            throw Problem(description: "type: expected \"track\", \"identify\" or \"screen\", found \(found)")
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
            throw Problem(description: "\(key): expected a string, found \(kindName(of: value))")
        }
        return string
    }

    private static func payloadObject(_ object: [String: JSONValue], _ key: String) throws(Problem) -> JSONValue {
        guard let value = object[key], !value.isNull else { return [:] }
        guard value.objectValue != nil else {
            throw Problem(description: "\(key): expected an object, found \(kindName(of: value))")
        }
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
                + "milliseconds since 1970, found \(kindName(of: value))")
    }

    /// The kind of `value` in words (`a string`, `an object`), for a problem that must not repeat the value.
    static func kindName(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int(let number): return number < 0 ? "a negative number" : "a number"
        case .double: return "a number with a fraction"
        case .string(let text): return text.isEmpty ? "an empty string" : "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// An unknown member name, quoted when it looks like a field name (ASCII letters, digits, `_`, `-`, at most
    /// 40); anything else may be data put where a field belongs, so only its length is given.
    static func fieldName(_ name: String) -> String {
        let looksLikeAField =
            !name.isEmpty && name.utf8.count <= 40
            && name.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
        return looksLikeAField ? "\"\(name)\"" : "(a name of \(name.count) characters, not shown)"
    }

    /// `not valid JSON at column C: why` (with the byte when it differs from the column), from the parser's
    /// offset into `bytes`.
    static func syntaxProblem(_ error: JSONParsingError, in bytes: [UInt8]) -> String {
        let offset = min(max(0, error.offset), bytes.count)
        let column = bytes[..<offset].reduce(1) { count, byte in byte & 0xC0 == 0x80 ? count : count + 1 }
        var place = "column \(column)"
        if column != offset + 1 { place += " (byte \(offset + 1))" }
        switch error.reason {
        case .tooDeep: return "not accepted: \(error.message) at \(place)"
        case .tooLarge: return "longer than the limit of \(SendCommandLimits.maximumLineBytes) bytes"
        default: return "not valid JSON at \(place): \(error.message)"
        }
    }
}
