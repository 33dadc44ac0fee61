#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FalconDriver {
    /// Creates an execution, queues its inputs and drains; returns the execution's id.
    func start(_ request: FalconExecuteRequest) -> UInt64 {
        let sessionId = dependencies.idSource.makeSessionID()
        let (apiKey, config) = core.withLock { ($0.apiKey, $0.config) }
        let resolved = FalconAttributeResolver.resolve(request.attributes, mapping: config.placementMapping)
        if resolved.droppedUserValueCount > 0 {
            log.log(.debug, nil, "\(resolved.droppedUserValueCount) user_details value(s) were empty or not scalars")
        }
        let preflight = FalconExecutionStateMachine.Preflight(
            request, resolved, apiKey: apiKey, config: config, sessionId: sessionId)
        let inlineSurface: (any FalconInlineSurface)?
        let surface: FalconRegistryMachine.SurfaceKey
        switch request.placement {
        case .inline(let host):
            inlineSurface = host
            surface = .inline(ObjectIdentifier(host))
        case .overlay:
            inlineSurface = nil
            surface = .overlay
        }
        // A negative or absurd override cannot break the deadline arithmetic: clamp to [0, one day].
        let loadTimeout = min(max(dependencies.loadTimeout, .zero), .seconds(86_400))
        let (id, shouldDrain) = core.withLock { core -> (UInt64, Bool) in
            let id = core.registry.register(
                surface, preflight: preflight, loadTimeout: loadTimeout, initialized: apiKey != nil,
                makeContext: { id, beaconTarget in
                    FalconExecutionContext(
                        callbacks: request.callbacks, layoutId: resolved.layoutId,
                        diagnosticPlacement: resolved.diagnosticPlacement,
                        diagnosticLayoutId: resolved.diagnosticLayoutId, inlineSurface: inlineSurface,
                        reporter: FalconExecutionReporter(driver: self, executionID: id), beaconTarget: beaconTarget)
                }, into: &core.inbox)
            return (id, core.beginDrain())
        }
        metrics.forward(.executionStarted)
        if shouldDrain { drain() }
        return id
    }
}

extension FalconDriver {
    /// Stores the API key and configuration for executions started from now on; warns (naming the caller) when
    /// the base URL is refused.
    func configure(
        apiKey: String, config: FalconConfig, file: String = #fileID, function: String = #function,
        line: UInt = #line
    ) {
        if !FalconRegistryMachine.acceptsBaseURL(of: config) {
            log.log(
                .warning, nil,
                "baseURL is refused: it must be https:// (http:// only for 127.0.0.1, localhost or [::1], since the"
                    + " webview URL carries the API key), with a host and without a query or fragment; every"
                    + " execute fails with urlConstructionFailed", file: file, function: function, line: line)
        }
        core.withLock {
            $0.apiKey = apiKey
            $0.config = config
            $0.registry.configure(config)
        }
    }

    /// Registers (or with `nil` removes) the events handler for `layoutId` (trimmed); an empty key is ignored.
    func setEventsHandler(
        _ handler: (@Sendable (FalconEvent) -> Void)?, layoutId: String, file: String = #fileID,
        function: String = #function, line: UInt = #line
    ) {
        guard let key = FalconIdentifier.normalize(layoutId) else {
            if handler != nil {
                log.log(
                    .debug, nil, "events handler ignored: empty layoutId", file: file, function: function, line: line)
            }
            return
        }
        core.withLock { $0.eventHandlers[key] = handler }
    }

    /// `attributes` as JSON; values JSON cannot carry are dropped and counted in a debug log line.
    func convert(_ attributes: [String: Any]) -> JSONValue {
        let conversion = JSONValue.convert(attributes)
        if !conversion.issues.isEmpty {
            log.log(
                .debug, nil, "\(conversion.issues.count) attribute value(s) could not be converted and were dropped")
        }
        return conversion.value
    }
}
