#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FalconExecutionStateMachine.Preflight {
    /// The preflight checks of an execute that need no registry state. The overlay slot is checked by the
    /// registry.
    init(
        _ request: FalconExecuteRequest, _ resolved: FalconResolvedAttributes, apiKey: String?, config: FalconConfig,
        sessionId: String
    ) {
        self.init(
            resolved, apiKey: apiKey, config: config, sessionId: sessionId, isSandbox: request.isSandbox,
            style: request.style)
    }

    /// The checks in spec order: initialized, resolved, URL built (the builder refuses a base URL that is not
    /// `https`, or `http` on a loopback host).
    init(
        _ resolved: FalconResolvedAttributes, apiKey: String?, config: FalconConfig, sessionId: String,
        isSandbox: Bool, style: FalconStyle?
    ) {
        guard let apiKey else {
            self = .notInitialized
            return
        }
        guard let placementId = resolved.placementId else {
            self = .unresolvedAttributes
            return
        }
        let built = FalconWebviewURLBuilder.build(
            baseURL: config.baseURL, apiKey: apiKey, placementId: placementId, sessionId: sessionId,
            userAttributes: resolved.userAttributes, isSandbox: isSandbox, style: style)
        switch built {
        case .success(let url): self = .ready(url)
        case .failure: self = .invalidURL
        }
    }

    /// What a failed check raises: the diagnostic's code and local message.
    struct Diagnosis: Error {
        var code: FalconDiagnosticCode
        var message: String
    }

    /// The URL to load, or the diagnosis of the first check that failed.
    var outcome: Result<URL, Diagnosis> {
        switch self {
        case .ready(let url): .success(url)
        case .notInitialized: .failure(Diagnosis(code: .initNotCalled, message: "execute was called before initSdk"))
        case .unresolvedAttributes:
            .failure(Diagnosis(code: .attributeMappingFailed, message: "attributes did not resolve to a placement"))
        case .invalidURL:
            .failure(Diagnosis(code: .urlConstructionFailed, message: "the webview URL could not be built"))
        case .overlayAlreadyActive:
            .failure(Diagnosis(code: .noPresenter, message: "another overlay is already active"))
        }
    }
}
