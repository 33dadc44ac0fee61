/// The granular reason of a Falcon failure, one case per documented diagnostic code.
///
/// The raw value is the case name, as logged and sent in beacons (`diagnostic.code.rawValue`).
public enum FalconDiagnosticCode: String, Sendable, Hashable, CaseIterable {
    /// `execute` was called before `initSdk`. Never sent as a beacon.
    case initNotCalled
    /// The attributes did not resolve to a placement.
    case attributeMappingFailed
    /// The webview URL could not be built (bad base URL or blank API key).
    case urlConstructionFailed
    /// The webview reported a navigation error after the navigation was committed.
    case webviewNavigationFailed
    /// The webview reported a provisional navigation error.
    case webviewProvisionalNavigationFailed
    /// The main-frame response had an HTTP status of 400 or higher.
    case webviewHTTPError
    /// The placement produced no signal within the load timeout (15 seconds).
    case webviewLoadTimedOut
    /// The web content posted an `error` bridge event.
    case bridgeReportedError
    /// An overlay found no presenter, or another overlay was already on screen.
    case noPresenter
}

/// One SDK failure as reported to the diagnostics delegate.
///
/// `message` is local, human-readable text built from the code and numbers only (an HTTP status, an error
/// code); it never contains the URL, attributes, the API key or text posted by the web content.
/// `placement` and `layoutId` are the trimmed `view` and `layout_id` values capped at 128 characters (and
/// 8 KiB of UTF-8).
public struct FalconDiagnostic: Sendable, Hashable {
    /// The granular reason.
    public var code: FalconDiagnosticCode
    /// A short local description; safe to log.
    public var message: String
    /// `placement_details.view`, trimmed and capped at 128 characters (and 8 KiB of UTF-8), or `nil` when absent.
    public var placement: String?
    /// `placement_details.layout_id`, trimmed and capped at 128 characters (and 8 KiB of UTF-8), or `nil` when absent.
    public var layoutId: String?

    /// Creates a diagnostic.
    package init(code: FalconDiagnosticCode, message: String, placement: String?, layoutId: String?) {
        self.code = code
        self.message = message
        self.placement = placement
        self.layoutId = layoutId
    }
}

/// Receives every ``FalconDiagnostic`` on the host executor.
///
/// Set ``Falcon/diagnosticsDelegate`` once at launch. The SDK holds the delegate strongly. Setting it changes
/// nothing else about the SDK's behaviour.
///
/// The protocol does not require `Sendable`, so the seed's `class MyDiagnosticsHandler: FalconDiagnosticsDelegate`
/// compiles as written (a non-final class, with state of its own if it likes), and the app may keep a reference to
/// it. The SDK calls ``falconDidEncounter(_:)`` only from jobs on the client's ``FalconExecutor`` — one call at a
/// time, never concurrently, in the order of the failures — which on Apple platforms is the main queue, where a
/// UIKit or SwiftUI app creates and reads its delegate (Docs/Decisions/0405). Read the delegate's own state on
/// that executor too.
public protocol FalconDiagnosticsDelegate {
    /// Called once for each failure, before that failure's `onError`.
    func falconDidEncounter(_ diagnostic: FalconDiagnostic)
}
