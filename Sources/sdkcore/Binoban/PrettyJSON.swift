import BinobanCore

/// Renders a `JSONValue` as indented JSON with sorted keys, for human eyes (the demo and `--dry-run`).
enum PrettyJSON {
    /// The indented text of `value`; nested levels are indented by two spaces more than `indent`.
    static func text(of value: JSONValue, indent: String = "") -> String {
        switch value {
        case .object(let members) where !members.isEmpty:
            let inner = indent + "  "
            let lines = members.keys.sorted().map { key in
                "\(inner)\(JSONValue.string(key).jsonString()): \(text(of: members[key] ?? .null, indent: inner))"
            }
            return "{\n\(lines.joined(separator: ",\n"))\n\(indent)}"
        case .array(let elements) where !elements.isEmpty:
            let inner = indent + "  "
            let lines = elements.map { "\(inner)\(text(of: $0, indent: inner))" }
            return "[\n\(lines.joined(separator: ",\n"))\n\(indent)]"
        default:
            return value.jsonString()
        }
    }
}
