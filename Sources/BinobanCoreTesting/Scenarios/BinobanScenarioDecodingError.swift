/// Why a scenario document was refused, with the field path: `steps[3].input.count: expected an integer`.
public struct BinobanScenarioDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field path (`steps[3].input.count`), empty for the document itself.
    public var path: String
    /// What is wrong.
    public var message: String
    /// For a JSON syntax error: the 1-based line of the problem.
    public var line: Int?
    /// For a JSON syntax error: the 1-based column (in characters) of the problem.
    public var column: Int?

    /// Creates an error.
    public init(path: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    /// `line 3, column 7: not valid JSON: …` or `path: message`.
    public var description: String {
        if let line {
            return "line \(line)" + (column.map { ", column \($0)" } ?? "") + ": " + message
        }
        return path.isEmpty ? message : "\(path): \(message)"
    }
}
