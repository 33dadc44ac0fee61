/// Why a placement could not be shown, as delivered to `onError` and `.placementFailure`.
///
/// The cases carry no associated values so that no user data can travel inside an error. The granular
/// reason is in the ``FalconDiagnostic`` delivered to ``FalconDiagnosticsDelegate``.
public enum FalconError: Error, Sendable, Hashable {
    /// `execute` was called before ``Falcon/initSdk(apiKey:)``.
    case initNotCalled
    /// The placement failed to load (mapping, URL, presenter, navigation, HTTP, timeout or bridge error).
    case placementLoadError
}
