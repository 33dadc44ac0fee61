/// Why a scenario document was refused: the JSON position (for syntax errors) or the field path, and what was
/// wrong. Shared by the Falcon and Binoban scenario decoders of the test kits.
///
/// ```text
/// line 4, column 12: the data is not valid JSON (unexpected character)
/// steps[2].input.status: expected an integer, found "200"
/// ```
public struct ScenarioDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field path, for example `steps[2].input.status`; empty for the whole document.
    public var path: String
    /// What was wrong.
    public var message: String
    /// The 1-based line of a JSON syntax error, when known.
    public var line: Int?
    /// The 1-based column (in characters) of a JSON syntax error, when known.
    public var column: Int?

    /// Creates an error.
    public init(path: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    /// `line L, column C: message`, `path: message` or `message`.
    public var description: String {
        if let line {
            return "line \(line)" + (column.map { ", column \($0)" } ?? "") + ": " + message
        }
        return path.isEmpty ? message : "\(path): \(message)"
    }
}
