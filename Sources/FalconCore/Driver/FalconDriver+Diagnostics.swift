extension FalconDriver {
    /// Performs a `diagnose` action: the error log line, the delegate call on the executor, and the beacon the
    /// registry's policy decided.
    func diagnose(
        _ code: FalconDiagnosticCode, _ message: String, _ context: FalconExecutionContext,
        _ beacon: FalconRegistryMachine.BeaconDecision
    ) {
        log.log(.error, code, message)
        let diagnostic = FalconDiagnostic(
            code: code, message: message, placement: context.diagnosticPlacement, layoutId: context.diagnosticLayoutId)
        dependencies.executor.enqueue { [weak self] in
            self?.delegate.withLock({ $0 })?.falconDidEncounter(diagnostic)
        }
        switch beacon {
        case .none:
            return
        case .dropped(let firstOfClient):
            metrics.forward(.beaconDropped)
            if firstOfClient {
                log.log(.warning, code, Self.missingBeaconTransportWarning)
            } else {
                log.log(.debug, code, "beacon not sent: no beacon transport installed")
            }
        case .send(let target):
            guard let transport = dependencies.beaconTransport else { return }
            let body = FalconBeacon(
                sdkv: Falcon.version, code: code, placement: context.diagnosticPlacement,
                layoutId: context.diagnosticLayoutId, platform: dependencies.platform,
                ts: FalconBeacon.milliseconds(since1970: dependencies.clock.wallTime())
            ).jsonBody()
            let request = FalconBeaconRequest(url: target, headers: ["Content-Type": "application/json"], body: body)
            beacons.send(request, with: transport) { [weak self] answered in
                self?.beaconFinished(answered ? .beaconSent : .beaconFailed)
            }
        }
    }

    /// The warning logged once per client for the first beacon dropped for want of a transport.
    static let missingBeaconTransportWarning =
        "beacon not sent: no beacon transport installed, so no diagnostic beacon will be sent. Install one at "
        + "launch: " + installTransportLine

    /// The line that installs this platform's beacon transport.
    static var installTransportLine: String {
        #if os(Linux)
        "Falcon.shared = FalconClient(dependencies: .init(beaconTransport: CurlBeaconTransport()))"
        #else
        "Falcon.shared = FalconClient(dependencies: .init(beaconTransport: URLSessionBeaconTransport())) "
            + "(import FalconCoreURLSession)"
        #endif
    }

    private func beaconFinished(_ outcome: FalconMetrics.Occurrence) {
        core.withLock { $0.registry.count(outcome) }
        metrics.forward(outcome)
    }

    /// Logs why a bridge message's JSON text was rejected (the reason and offset only, never the text).
    func logRejectedBridgeMessage(
        _ error: JSONParsingError, file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        log.log(.debug, nil, "bridge message rejected: \(error)", file: file, function: function, line: line)
    }
}
