/// Why a scenario document was refused, with the field path: `steps[3].input.count: expected an integer`.
public struct BinobanScenarioDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field path (`steps[3].input.count`), empty for the document itself.
    public var path: String
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
