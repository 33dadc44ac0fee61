#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What the renderer should do with a navigation request inside the placement's web view.
///
/// A renderer asks for the decision in its navigation delegate (WebKit's `decidePolicyFor`) for every
/// navigation the web content starts:
///
/// ```swift
/// let decision = FalconNavigationDecision(
///     url: requestURL, isMainFrame: isMainFrame, placementURL: loadedURL, sinceLastTouch: sinceLastTouch)
/// ```
public enum FalconNavigationDecision: Sendable, Hashable {
    /// Let the web view load it.
    case allow
    /// Cancel it silently.
    case cancel
    /// Cancel it in the web view and hand the URL to the system (browser, App Store, deep link).
    case openExternally(URL)

    /// The decision for a navigation of the placement's web view (spec §d).
    ///
    /// Same origin as the placement URL is allowed; subframe `about:` and `http(s)` loads are allowed;
    /// `javascript:`, `data:`, `file:` and `blob:` are always cancelled; anything else (off-origin `http(s)` in
    /// the main frame, `itms-apps:`, deep links) opens externally only within one second of a real user touch,
    /// and is cancelled otherwise.
    ///
    /// - Parameters:
    ///   - url: The requested URL.
    ///   - isMainFrame: Whether the request targets the main frame.
    ///   - placementURL: The URL of the execution's `load` command.
    ///   - sinceLastTouch: Time since the last user touch the renderer reported, or `nil` when there was none.
    public init(url: URL, isMainFrame: Bool, placementURL: URL, sinceLastTouch: Duration?) {
        self = FalconNavigationPolicy.decide(
            url: url, isMainFrame: isMainFrame, placementURL: placementURL, sinceLastTouch: sinceLastTouch)
    }
}

/// The pure navigation policy of spec §d: the web view's own navigations (``FalconNavigationDecision``'s
/// initializer, for renderers) and the bridge's `click` (for the execution machine).
package enum FalconNavigationPolicy: Sendable {
    /// How long after a user touch a navigation or a bridge `click` counts as user-initiated (1 s).
    package static let touchGate: Duration = .seconds(1)

    /// Decides a navigation of the web view (the rules are listed on ``FalconNavigationDecision``'s initializer).
    package static func decide(
        url: URL,
        isMainFrame: Bool,
        placementURL: URL,
        sinceLastTouch: Duration?
    ) -> FalconNavigationDecision {
        let scheme = (url.scheme ?? "").lowercased()
        if ["javascript", "data", "file", "blob"].contains(scheme) { return .cancel }
        if let origin = origin(of: url), origin == self.origin(of: placementURL) { return .allow }
        let isWeb = scheme == "http" || scheme == "https"
        if !isMainFrame && (isWeb || scheme == "about") { return .allow }
        return isUserInitiated(sinceLastTouch) ? .openExternally(url) : .cancel
    }

    /// The decision for a bridge `click`: `http(s)` URLs open externally within the touch gate.
    package static func decideClick(url: URL, sinceLastTouch: Duration?) -> FalconNavigationDecision {
        let scheme = (url.scheme ?? "").lowercased()
        guard scheme == "http" || scheme == "https" else { return .cancel }
        return isUserInitiated(sinceLastTouch) ? .openExternally(url) : .cancel
    }

    static func isUserInitiated(_ sinceLastTouch: Duration?) -> Bool {
        guard let sinceLastTouch else { return false }
        return sinceLastTouch >= .zero && sinceLastTouch <= touchGate
    }

    /// `scheme://authority` in lower case, or `nil` for URLs without an authority.
    static func origin(of url: URL) -> String? {
        let text = url.absoluteString
        guard let (scheme, rest) = FalconIdentifier.splitScheme(text) else { return nil }
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        guard end > rest.startIndex else { return nil }
        let authority = String(rest[..<end])
        return "\(scheme)://\(authority)".lowercased()
    }
}
