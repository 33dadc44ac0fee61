/// A dumped instance shows what a developer debugging an integration needs, and nothing that holds the API
/// key: the default mirror would walk into the upload request builder and print its `Authorization` header.
extension Binoban: CustomReflectable {
    /// The configuration (API key redacted), whether the instance runs and is enabled, and its statistics.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                (label: "configuration", value: configuration as Any),
                (label: "isOperational", value: isOperational as Any),
                (label: "enabled", value: enabled as Any),
                (label: "statistics", value: statistics as Any),
            ],
            displayStyle: .class
        )
    }
}
