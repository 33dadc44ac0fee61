/// The matching rules between one expectation and one observed output (see ``FalconScenarioExpectation``).
public enum FalconScenarioMatcher: Sendable {
    /// The placeholder for the running SDK's version inside an expected beacon `body`.
    public static let versionPlaceholder = "$SDK_VERSION"

    /// Why `output` does not satisfy `expectation`, or `nil` when it does.
    public static func difference(_ expectation: FalconScenarioExpectation, _ output: FalconScenarioOutput) -> String? {
        guard expectation.type == output.type else {
            return "expected a \(expectation.type) output, observed a \(output.type) output"
        }
        for key in expectation.fields.keys.sorted() {
            guard let expected = expectation.fields[key] else { continue }
            switch key {
            case "urlPattern":
                let url = output.fields["url"]?.stringValue ?? ""
                guard let pattern = expected.stringValue, glob(pattern, matches: url) else {
                    return "url \(JSONValue.string(url).jsonString()) does not match pattern \(expected.jsonString())"
                }
            case "body" where expectation.type == "beacon":
                let observed = output.fields["body"] ?? .null
                guard equal(substitutingVersion(expected), observed) else {
                    return "beacon body: expected \(expected.jsonString()), observed \(observed.jsonString())"
                }
            case "fields" where expectation.type == "beacon":
                let body = output.fields["body"]?.objectValue ?? [:]
                for (name, value) in (expected.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                    let observed = body[name] ?? .null
                    guard equal(substitutingVersion(value), observed) else {
                        return
                            "beacon field \"\(name)\": expected \(value.jsonString()), observed \(observed.jsonString())"
                    }
                }
            default:
                let observed = output.fields[key] ?? .null
                guard equal(expected, observed) else {
                    return "field \"\(key)\": expected \(expected.jsonString()), observed \(observed.jsonString())"
                }
            }
        }
        return nil
    }

    /// JSON equality where `240` equals `240.0`.
    public static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.int, .double), (.double, .int), (.double, .double):
            return lhs.doubleValue == rhs.doubleValue
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && left.allSatisfy { key, value in right[key].map { equal(value, $0) } ?? false }
        default:
            return lhs == rhs
        }
    }

    /// Whether `text` matches `pattern`, where `*` stands for any run of characters (including none) and every
    /// other character matches itself.
    ///
    /// - Complexity: O(n · m) in the worst case, usually linear.
    public static func glob(_ pattern: String, matches text: String) -> Bool {
        let pattern = Array(pattern.unicodeScalars)
        let text = Array(text.unicodeScalars)
        var p = 0
        var t = 0
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] != "*", pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    private static func substitutingVersion(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(versionPlaceholder): .string(Falcon.version)
        case .object(let members): .object(members.mapValues(substitutingVersion))
        case .array(let elements): .array(elements.map(substitutingVersion))
        default: value
        }
    }
}
