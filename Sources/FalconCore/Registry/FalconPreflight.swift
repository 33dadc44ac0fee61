extension FalconExecutionStateMachine.Preflight {
    /// The preflight checks that need no registry state, in spec order: initialized, resolved, URL built (the
    /// builder refuses a base URL that is not `https`, or `http` on a loopback host). The overlay slot is checked
    /// by the registry.
    init(
        _ request: FalconExecuteRequest, _ resolved: FalconResolvedAttributes, apiKey: String?, config: FalconConfig,
        sessionId: String
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
            userAttributes: resolved.userAttributes, isSandbox: request.isSandbox, style: request.style)
        switch built {
        case .success(let url): self = .ready(url)
        case .failure: self = .invalidURL
        }
    }
}
