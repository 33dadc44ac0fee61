#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Builds the placement URL of spec §d: `<baseURL>/ui/webview?placement=…&apiKey=…&sessionId=…&at.*…`.
///
/// Query order is fixed: `placement`, `apiKey`, `sessionId`, `at.email`, `at.firstname`, `at.lastname`, the
/// other `at.*` sorted by key, `sandbox=true` when sandboxed, then `style.*`. Names and values are encoded by
/// ``FalconPercentEncoder``. The URL carries the API key and user data: it is never logged or put in a
/// diagnostic.
public enum FalconWebviewURLBuilder: Sendable {
    /// Why the URL could not be built; every case maps to ``FalconDiagnosticCode/urlConstructionFailed``.
    public enum Failure: Error, Sendable, Hashable {
        /// The base URL is not `http(s)`, has no host, or carries a query or fragment.
        case invalidBaseURL
        /// The API key is empty after trimming.
        case blankAPIKey
        /// The placement id is empty.
        case missingPlacement
        /// The assembled text was not accepted as a URL.
        case unrepresentable
    }

    /// Builds the URL, or returns why it cannot be built.
    public static func build(
        baseURL: URL,
        apiKey: String,
        placementId: String,
        sessionId: String,
        userAttributes: [FalconQueryItem],
        isSandbox: Bool,
        style: FalconStyle?
    ) -> Result<URL, Failure> {
        guard let base = webviewBase(baseURL.absoluteString) else { return .failure(.invalidBaseURL) }
        let key = FalconIdentifier.trim(apiKey)
        guard !key.isEmpty else { return .failure(.blankAPIKey) }
        guard !placementId.isEmpty else { return .failure(.missingPlacement) }
        var items = [
            FalconQueryItem(name: "placement", value: placementId),
            FalconQueryItem(name: "apiKey", value: key),
            FalconQueryItem(name: "sessionId", value: sessionId),
        ]
        items += userAttributes
        if isSandbox { items.append(FalconQueryItem(name: "sandbox", value: "true")) }
        for (name, value) in style?.queryParameters ?? [] {
            items.append(FalconQueryItem(name: name, value: value))
        }
        var text = base + "?"
        for (index, item) in items.enumerated() {
            if index > 0 { text += "&" }
            text += FalconPercentEncoder.encode(item.name) + "=" + FalconPercentEncoder.encode(item.value)
        }
        guard let url = URL(string: text) else { return .failure(.unrepresentable) }
        return .success(url)
    }

    /// `scheme://authority/path/ui/webview` for a valid base, else `nil`. Parsed by hand so the rules are
    /// the same on every platform.
    static func webviewBase(_ text: String) -> String? {
        guard !text.contains("?"), !text.contains("#") else { return nil }
        guard let (rawScheme, rest) = FalconIdentifier.splitScheme(text) else { return nil }
        let scheme = rawScheme.lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let host = hostAndPort.hasPrefix("[") ? hostAndPort : (hostAndPort.split(separator: ":").first ?? "")
        guard !host.isEmpty else { return nil }
        var path = String(rest[authorityEnd...])
        while path.hasSuffix("/") { path.removeLast() }
        return "\(scheme)://\(authority)\(path)/ui/webview"
    }
}
