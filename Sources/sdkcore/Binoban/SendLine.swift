import BinobanCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One valid input line of `sdkcore binoban send`, ready to hand to the instance as one server call.
struct SendLine: Sendable, Hashable {
    /// Which call the line becomes (its `type`).
    enum Kind: String, Sendable, Hashable, CaseIterable {
        case track, identify, page, screen, group, alias
    }

    /// Which call the line becomes.
    var kind: Kind
    /// The event name (track, required) or the page or screen name (optional); `nil` otherwise.
    var name: String?
    /// The page or screen `category`, if any.
    var category: String?
    /// `properties` (track, page, screen) or `traits` (identify, group); an object (`{}` for alias).
    var payload: JSONValue
    /// The per-line userId, if any (required for alias).
    var userId: String?
    /// The per-line anonymousId, if any (not for alias).
    var anonymousId: String?
    /// The group's `groupId` (group only, required).
    var groupId: String?
    /// The alias's `previousId` (alias only, required).
    var previousId: String?
    /// The message fields the line gives: `timestamp`, `messageId`, `context`, `integrations`.
    var fields = BinobanMessageFields()

    /// Why a line was refused: the message names the field.
    struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        var description: String
    }

    static let allowedFields: Set<String> = [
        "type", "name", "event", "category", "properties", "traits", "userId", "anonymousId", "groupId",
        "previousId", "timestamp", "messageId", "context", "integrations",
    ]

    /// The members each kind takes besides `type`, the ids and the message fields.
    private static let ownFields: [Kind: Set<String>] = [
        .track: ["name", "event", "properties"],
        .identify: ["traits"],
        .page: ["name", "category", "properties"],
        .screen: ["name", "category", "properties"],
        .group: ["groupId", "traits"],
        .alias: ["previousId"],
    ]

    /// `"track", "identify", …` for the problem messages.
    private static var kindList: String {
        Kind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
    }

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
            throw Problem(description: "type: is required (\(Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard let typeName = typeValue.stringValue, let kind = Kind(rawValue: typeName) else {
            let found = typeValue.stringValue == nil ? kindName(of: typeValue) : "a different string"
            throw Problem(description: "type: expected one of \(kindList), found \(found)")
        }
        let kindFields = ownFields[kind] ?? []
        let otherKindsFields = Set(ownFields.values.joined()).subtracting(kindFields)
        if let misplaced = object.keys.filter({ otherKindsFields.contains($0) }).sorted().first {
            let takers = Kind.allCases.filter { ownFields[$0]?.contains(misplaced) == true }.map(\.rawValue)
            throw Problem(
                description: "\(misplaced): not for \(kind.rawValue) (only \(takers.joined(separator: ", ")))")
        }
        var line = SendLine(kind: kind, payload: [:])
        line.userId = try optionalString(object, "userId")
        line.anonymousId = try optionalString(object, "anonymousId")
        line.fields.timestamp = try timestamp(object["timestamp"])
        line.fields.messageId = try optionalString(object, "messageId")
        line.fields.context = try optionalObject(object, "context") ?? [:]
        line.fields.integrations = try optionalObject(object, "integrations")
        switch kind {
        case .track:
            if object["name"] != nil, object["event"] != nil {
                throw Problem(description: "give either name or event, not both")
            }
            var name = try optionalString(object, "name")
            if name == nil { name = try optionalString(object, "event") }
            guard let name, !name.allSatisfy(\.isWhitespace) else {
                throw Problem(description: "name: is required for track (a non-empty string; \"event\" also works)")
            }
            line.name = name
            line.payload = try payloadObject(object, "properties")
        case .page, .screen:
            line.name = try optionalString(object, "name")
            line.category = try optionalString(object, "category")
            line.payload = try payloadObject(object, "properties")
        case .identify:
            line.payload = try payloadObject(object, "traits")
        case .group:
            line.groupId = try requiredString(object, "groupId", for: kind)
            line.payload = try payloadObject(object, "traits")
        case .alias:
            if object["anonymousId"] != nil {
                throw Problem(description: "anonymousId: not for alias (an alias links previousId to userId)")
            }
            line.userId = try requiredString(object, "userId", for: kind)
            line.previousId = try requiredString(object, "previousId", for: kind)
        }
        return line
    }

    private static func requiredString(
        _ object: [String: JSONValue], _ key: String, for kind: Kind
    ) throws(Problem) -> String {
        guard let text = try optionalString(object, key), !text.allSatisfy(\.isWhitespace) else {
            throw Problem(description: "\(key): is required for \(kind.rawValue) (a non-empty string)")
        }
        return text
    }

    private static func optionalObject(
        _ object: [String: JSONValue], _ key: String
    ) throws(Problem) -> [String: JSONValue]? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let members = value.objectValue else {
            throw Problem(description: "\(key): expected an object, found \(kindName(of: value))")
        }
        return members
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
    private static func timestamp(_ value: JSONValue?) throws(Problem) -> Date? {
        guard let value, !value.isNull else { return nil }
        if case .int(let milliseconds) = value, milliseconds >= 0 {
            return Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
        }
        if let text = value.stringValue {
            let styles = [
                Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle(),
            ]
            for style in styles {
                if let date = try? style.parse(text) { return date }
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

    /// An unknown member name, quoted only when it is a likely misspelling of an allowed field (at most two
    /// edits away, letters compared without case), with the field it resembles. Any other name may be data put
    /// where a field belongs (an id, a token, an email used as a key), even when it looks like an identifier, so
    /// only its length is given.
    static func fieldName(_ name: String) -> String {
        let unspecified = "(a name of \(name.count) character\(name.count == 1 ? "" : "s"), not shown)"
        guard name.utf8.count <= 40, name.unicodeScalars.allSatisfy({ $0.isASCII }) else { return unspecified }
        let lowered = Array(name.lowercased().utf8)
        let nearest = allowedFields.sorted().map { ($0, editDistance(lowered, Array($0.lowercased().utf8))) }
            .min { $0.1 < $1.1 }
        guard let (field, distance) = nearest, distance <= 2, distance < lowered.count else { return unspecified }
        return "\"\(name)\" (did you mean \"\(field)\"?)"
    }

    /// The Levenshtein distance of two short byte strings.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
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
