/// The outcome of replaying one Binoban scenario.
public struct BinobanScenarioResult: Sendable, Hashable {
    /// The scenario's name.
    public var name: String
    /// The outputs observed, in order.
    public var observed: [JSONValue]
    /// The outputs expected, in order.
    public var expected: [JSONValue]
    /// The first difference, if any.
    public var mismatch: BinobanScenarioMismatch?

    /// Whether every output matched.
    public var passed: Bool { mismatch == nil }

    /// One line: `passed` or the first mismatch.
    public var summary: String { mismatch?.description ?? "passed" }

    /// The first mismatch and a side-by-side listing: `ok`, `!!` (differs), `+` (extra), `-` (missing).
    public var report: String {
        var lines = [summary]
        for index in 0..<max(observed.count, expected.count) {
            let want: JSONValue? = index < expected.count ? .some(expected[index]) : .none
            let got: JSONValue? = index < observed.count ? .some(observed[index]) : .none
            switch (want, got) {
            case (let want?, let got?):
                let same = BinobanScenarioMatcher.difference(expected: want, observed: got, path: "") == nil
                lines.append("\(same ? "ok" : "!!") #\(index + 1) expected: \(want)")
                if !same { lines.append("      observed: \(got)") }
            case (let want?, .none): lines.append("-  #\(index + 1) expected: \(want)")
            case (.none, let got?): lines.append("+  #\(index + 1) observed: \(got)")
            case (.none, .none): break
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// The first place where observed outputs differ from the expected ones.
public struct BinobanScenarioMismatch: Sendable, Hashable, CustomStringConvertible {
    /// The output position (1-based).
    public var position: Int
    /// What differs: `field "events[0].userId": expected "u1", observed "u2"`, `missing output`, `extra output`.
    public var reason: String
    /// The expected output, if any.
    public var expected: JSONValue?
    /// The observed output, if any.
    public var observed: JSONValue?

    /// `first mismatch at output #3: …`.
    public var description: String { "first mismatch at output #\(position): \(reason)" }
}

/// Compares observed outputs with expectations: fields left out are not compared, `null` means absent,
/// numbers compare by value, objects are compared member by member (recursively), arrays element by element
/// with equal counts.
public enum BinobanScenarioMatcher: Sendable {
    /// The first mismatch between `expected` and `observed`, or `nil`.
    public static func firstMismatch(expected: [JSONValue], observed: [JSONValue]) -> BinobanScenarioMismatch? {
        for index in 0..<max(expected.count, observed.count) {
            guard index < observed.count else {
                return BinobanScenarioMismatch(
                    position: index + 1, reason: "missing output", expected: expected[index], observed: .none)
            }
            guard index < expected.count else {
                return BinobanScenarioMismatch(
                    position: index + 1, reason: "extra output", expected: .none, observed: observed[index])
            }
            if let reason = difference(expected: expected[index], observed: observed[index], path: "") {
                return BinobanScenarioMismatch(
                    position: index + 1, reason: reason, expected: expected[index], observed: observed[index])
            }
        }
        return nil
    }

    /// Why `observed` does not match `expected` at `path`, or `nil` when it does.
    public static func difference(expected: JSONValue, observed: JSONValue?, path: String) -> String? {
        func describe() -> String {
            "field \"\(path)\": expected \(expected), observed \(observed.map(\.description) ?? "(absent)")"
        }
        switch expected {
        case .null:
            return observed == .none || observed == .some(.null) ? nil : describe()
        case .object(let members):
            guard let actual = observed?.objectValue else { return describe() }
            for key in members.keys.sorted() {
                let child = path.isEmpty ? key : "\(path).\(key)"
                if let reason = difference(expected: members[key] ?? .null, observed: actual[key], path: child) {
                    return reason
                }
            }
            return nil
        case .array(let elements):
            guard let actual = observed?.arrayValue else { return describe() }
            guard actual.count == elements.count else {
                return "field \"\(path)\": expected \(elements.count) elements, observed \(actual.count)"
            }
            for (index, element) in elements.enumerated() {
                if let reason = difference(expected: element, observed: actual[index], path: "\(path)[\(index)]") {
                    return reason
                }
            }
            return nil
        case .int, .double:
            guard let want = expected.doubleValue, let got = observed?.doubleValue, want == got else {
                return describe()
            }
            return nil
        default:
            return expected == observed ? nil : describe()
        }
    }
}
