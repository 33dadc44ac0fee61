/// One line for a ``SDKCoreLogHandler``, shaped like a swift-log call: a level, a message, string metadata and
/// where it came from.
///
/// Messages and metadata never carry an API key, event properties, traits, `user_details`, push tokens or text
/// from web content: only what happened, codes, kinds and counts.
public struct SDKCoreLogRecord: Sendable, Hashable {
    /// How important the line is.
    public var level: SDKCoreLogLevel
    /// Value-free, human-readable text.
    public var message: String
    /// Machine-readable details, such as `code`, `kind` or `eventCount`.
    public var metadata: [String: String]
    /// The module that wrote the line: `FalconCore` or `BinobanCore` (swift-log's `source`).
    public var source: String
    /// The file that wrote the line.
    public var file: String
    /// The function that wrote the line.
    public var function: String
    /// The line that wrote the line.
    public var line: UInt

    /// Creates a record; `file`, `function` and `line` default to the caller's.
    public init(
        level: SDKCoreLogLevel,
        message: String,
        metadata: [String: String] = [:],
        source: String,
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        self.level = level
        self.message = message
        self.metadata = metadata
        self.source = source
        self.file = file
        self.function = function
        self.line = line
    }
}
