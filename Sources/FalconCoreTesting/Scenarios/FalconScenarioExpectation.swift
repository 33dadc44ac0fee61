/// One expected output: its `type` and the fields to compare.
///
/// Every output except a beacon also has `at`, the virtual millisecond at which the host observed it.
///
/// Every field written in the file must match the observed output; a field left out is not compared. A
/// `null` field requires the observed field to be absent or `null`. Three fields have special rules:
/// `urlPattern` (a `*` glob over a `load`'s URL), a beacon's `body` (exact JSON, where the string
/// `$SDK_VERSION` stands for the running SDK's version) and a beacon's `fields` (a subset of the body).
public struct FalconScenarioExpectation: Sendable, Hashable, CustomStringConvertible {
    /// The output type: `callback`, `event`, `diagnostic`, `beacon`, `load`, `stop`, `setContentHeight`,
    /// `teardown`, `openExternally`, `present` or `dismiss`.
    public var type: String
    /// The fields to compare, without `type`.
    public var fields: [String: JSONValue]

    /// Creates an expectation.
    public init(type: String, fields: [String: JSONValue] = [:]) {
        self.type = type
        self.fields = fields
    }

    /// The expectation as compact JSON, `type` first.
    public var description: String { FalconScenarioOutput(type: type, fields: fields).description }
}

/// One output observed while a scenario ran: a callback, event, diagnostic, beacon, renderer command or
/// presenter operation.
public struct FalconScenarioOutput: Sendable, Hashable, CustomStringConvertible {
    /// The output type (see ``FalconScenarioExpectation/type``).
    public var type: String
    /// The observed fields, without `type`.
    public var fields: [String: JSONValue]

    /// Creates an output.
    public init(type: String, fields: [String: JSONValue] = [:]) {
        self.type = type
        self.fields = fields
    }

    /// The output as compact JSON with `type` first and the other keys sorted.
    public var description: String {
        var text = "{\"type\":" + JSONValue.string(type).jsonString()
        for key in fields.keys.sorted() {
            guard let value = fields[key] else { continue }
            text += "," + JSONValue.string(key).jsonString() + ":" + value.jsonString()
        }
        return text + "}"
    }
}
