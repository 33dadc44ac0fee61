#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension FalconConfig {
    /// The webview URL an execute with these attributes would load, or the diagnostic it would raise instead.
    ///
    /// The same resolution and URL as an execute on a client configured with this value: ``placementMapping``
    /// is looked up as `"<layout_id>/<view>"`, `"<view>"`, `"<layout_id>"`, then the raw `view` is used, and the
    /// URL is ``baseURL`` followed by `/ui/webview?placement=…&apiKey=…&sessionId=…` and the user's `at.*`
    /// values. A server renders a placement link (an email, a web page) with it, without a client.
    ///
    /// The failure is the diagnostic an execute reports to its delegate:
    /// ``FalconDiagnosticCode/attributeMappingFailed`` when the attributes name no placement,
    /// ``FalconDiagnosticCode/urlConstructionFailed`` for a base URL that is not `https` (`http` only on a
    /// loopback host) or a blank API key; its `placement` and `layoutId` are the capped identifiers a beacon
    /// would carry. The URL carries the API key and the user's attributes: never log it.
    ///
    /// - Parameters:
    ///   - attributes: `placement_details` and `user_details`, as passed to `execute`.
    ///   - apiKey: The key given to `initSdk`.
    ///   - sessionId: The session id the URL carries (an execute makes a new UUID each time).
    ///   - isSandbox: Adds `sandbox=true`.
    ///   - style: Adds the style's `style.*` values.
    public func placementURL(
        attributes: JSONValue,
        apiKey: String,
        sessionId: String,
        isSandbox: Bool = false,
        style: FalconStyle? = nil
    ) -> Result<URL, FalconDiagnostic> {
        let resolved = FalconAttributeResolver.resolve(attributes, mapping: placementMapping)
        let preflight = FalconExecutionStateMachine.Preflight(
            resolved, apiKey: apiKey, config: self, sessionId: sessionId, isSandbox: isSandbox, style: style)
        return preflight.outcome.mapError { diagnosis in
            FalconDiagnostic(
                code: diagnosis.code, message: diagnosis.message, placement: resolved.diagnosticPlacement,
                layoutId: resolved.diagnosticLayoutId)
        }
    }
}

/// A diagnostic is also the failure of ``FalconConfig/placementURL(attributes:apiKey:sessionId:isSandbox:style:)``.
extension FalconDiagnostic: Error {}
