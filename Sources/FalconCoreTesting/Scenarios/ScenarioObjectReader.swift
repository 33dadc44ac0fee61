/// Reads the members of one JSON object for the scenario decoder, naming the field path in every error and
/// rejecting members nobody asked for (a misspelt key is an error, not a silently ignored field).
struct ScenarioObjectReader {
    let path: String
    let members: [String: JSONValue]
    private(set) var used: Set<String> = []

    init(_ value: JSONValue, path: String) throws(FalconScenarioDecodingError) {
        guard let members = value.objectValue else {
            throw FalconScenarioDecodingError(path: path, message: "expected an object, found \(Self.kind(value))")
        }
        self.path = path
        self.members = members
    }

    func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    mutating func value(_ key: String) -> JSONValue? {
        used.insert(key)
        guard let value = members[key], !value.isNull else { return nil }
        return value
    }

    mutating func required(_ key: String) throws(FalconScenarioDecodingError) -> JSONValue {
        guard let value = value(key) else {
            throw FalconScenarioDecodingError(path: child(key), message: "is required")
        }
        return value
    }

    mutating func string(_ key: String) throws(FalconScenarioDecodingError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else { throw mismatch(key, "a string", value) }
        return text
    }

    mutating func requiredString(_ key: String) throws(FalconScenarioDecodingError) -> String {
        let value = try required(key)
        guard let text = value.stringValue else { throw mismatch(key, "a string", value) }
        return text
    }

    mutating func bool(_ key: String) throws(FalconScenarioDecodingError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.boolValue else { throw mismatch(key, "true or false", value) }
        return flag
    }

    mutating func integer(_ key: String) throws(FalconScenarioDecodingError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .int(let number) = value else { throw mismatch(key, "an integer", value) }
        return number
    }

    mutating func number(_ key: String) throws(FalconScenarioDecodingError) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.doubleValue else { throw mismatch(key, "a number", value) }
        return number
    }

    mutating func oneOf(_ key: String, _ choices: [String]) throws(FalconScenarioDecodingError) -> String? {
        guard let text = try string(key) else { return nil }
        guard choices.contains(text) else {
            throw FalconScenarioDecodingError(
                path: child(key),
                message: "expected one of \(choices.map { "\"\($0)\"" }.joined(separator: ", ")), found \"\(text)\""
            )
        }
        return text
    }

    /// Throws when the object has a member that was never read.
    func rejectUnknownKeys() throws(FalconScenarioDecodingError) {
        let unknown = members.keys.filter { !used.contains($0) }.sorted()
        guard let first = unknown.first else { return }
        let known = used.sorted().joined(separator: ", ")
        throw FalconScenarioDecodingError(
            path: child(first),
            message: "unknown field" + (known.isEmpty ? "" : " (expected one of: \(known))")
        )
    }

    func mismatch(_ key: String, _ expected: String, _ value: JSONValue) -> FalconScenarioDecodingError {
        FalconScenarioDecodingError(path: child(key), message: "expected \(expected), found \(Self.kind(value))")
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .int, .double: "the number \(value.jsonString())"
        case .string(let text): "\"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
