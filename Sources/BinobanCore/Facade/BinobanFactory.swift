/// Creates ``Binoban`` instances, as the iOS SDK's `BinobanFactory.shared` does.
///
/// ```swift
/// let binoban = BinobanFactory.shared.create(apiKey: "KEY", sourceIdentifier: "SOURCE") { config in
///     config.apiHost = "api.binoban.io"
/// }
/// binoban.track(name: "purchase", properties: ["item": "shoes"])
/// ```
public final class BinobanFactory: Sendable {
    /// The factory.
    public static let shared = BinobanFactory()

    private init() {}

    /// Creates an instance. Never throws: an invalid configuration yields a disabled instance and a report to
    /// ``Configuration/errorHandler``.
    ///
    /// - Parameters:
    ///   - apiKey: the API key (sent as Basic authorization, never logged).
    ///   - sourceIdentifier: the source identifier (the envelope's `writeKey`).
    ///   - configs: sets further options; `apiHost` is required.
    public func create(
        apiKey: String,
        sourceIdentifier: String,
        configs: (inout Configuration) -> Void = { _ in }
    ) -> Binoban {
        var configuration = Configuration(apiKey: apiKey, sourceIdentifier: sourceIdentifier)
        configs(&configuration)
        return Binoban.create(configuration: configuration)
    }
}
