#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Builds the placement URL of spec §d: `<baseURL>/ui/webview?placement=…&apiKey=…&sessionId=…&at.*…`.
///
/// Query order is fixed: `placement`, `apiKey`, `sessionId`, `at.email`, `at.firstname`, `at.lastname`, the
/// other `at.*` sorted by key, `sandbox=true` when sandboxed, then `style.*`. Names and values are encoded by
/// `FalconPercentEncoder`. The URL carries the API key and user data: it is never logged or put in a
/// diagnostic. Hosts build it through ``FalconConfig/placementURL(attributes:apiKey:sessionId:isSandbox:style:)``;
/// the builder itself is SPI for the benchmarks (`@_spi(Tooling) import FalconCore`).
@_spi(Tooling) public enum FalconWebviewURLBuilder: Sendable {
    private typealias Writer = FalconPercentEncoder.Writer

    /// Why the URL could not be built; every case maps to ``FalconDiagnosticCode/urlConstructionFailed``.
    @_spi(Tooling) public enum Failure: Error, Sendable, Hashable {
        /// The base URL is not `https` (`http` only for a loopback host: `127.0.0.1`, `localhost`, `[::1]`),
        /// has no host, or carries a query or fragment.
        case invalidBaseURL
        /// The API key is empty after trimming.
        case blankAPIKey
        /// The placement id is empty.
        case missingPlacement
        /// The assembled text was not accepted as a URL.
        case unrepresentable
    }

    /// Builds the URL, or returns why it cannot be built.
    @_spi(Tooling) public static func build(
        baseURL: URL,
        apiKey: String,
        placementId: String,
        sessionId: String,
        userAttributes: [FalconQueryItem],
        isSandbox: Bool,
        style: FalconStyle?
    ) -> Result<URL, Failure> {
        let (webviewBase, styleQuery) = memoized(baseURL.absoluteString, style)
        guard let base = webviewBase else { return .failure(.invalidBaseURL) }
        let key = FalconIdentifier.trim(apiKey)
        guard !key.isEmpty else { return .failure(.blankAPIKey) }
        guard !placementId.isEmpty else { return .failure(.missingPlacement) }
        // One buffer for the whole URL, sized for the worst case (every byte escaped) before anything is written.
        var capacity = base.utf8.count + styleQuery.utf8.count
        func reserve(_ name: String, _ value: String) {
            capacity += Writer.capacity(name: name, value: value)
        }
        reserve("placement", placementId)
        reserve("apiKey", key)
        reserve("sessionId", sessionId)
        for item in userAttributes { reserve(item.name, item.value) }
        if isSandbox { reserve("sandbox", "true") }
        let text = Writer.string(capacity: capacity) { writer in
            writer.append(verbatim: base)
            writer.appendQueryItem("placement", placementId)
            writer.appendQueryItem("apiKey", key)
            writer.appendQueryItem("sessionId", sessionId)
            for item in userAttributes { writer.appendQueryItem(item.name, item.value) }
            if isSandbox { writer.appendQueryItem("sandbox", "true") }
            writer.append(verbatim: styleQuery)
        }
        guard let url = URL(string: text) else { return .failure(.unrepresentable) }
        return .success(url)
    }

    /// What the last URL was built from and the parts derived from it: a client builds every URL from the same
    /// configured base and, usually, the same style, so the base-URL rule and the style's query run once per
    /// configuration instead of once per execute.
    private struct Memo {
        var baseText: String
        var base: String?
        var style: FalconStyle?
        var styleQuery: String
    }

    private static let memo = LockedValue<Memo?>(nil)

    /// ``webviewBase(_:)`` of `baseText`, and the encoded `&style.…` items of `style` (empty without one).
    static func memoized(_ baseText: String, _ style: FalconStyle?) -> (base: String?, styleQuery: String) {
        // Compared inside the lock: a hit copies out two strings, not the whole memo.
        let hit = memo.withLock { memo -> (base: String?, styleQuery: String)? in
            guard let memo, memo.baseText == baseText, memo.style == style else { return nil }
            return (memo.base, memo.styleQuery)
        }
        if let hit { return hit }
        let fresh = Memo(baseText: baseText, base: webviewBase(baseText), style: style, styleQuery: styleQuery(style))
        memo.withLock { $0 = fresh }
        return (fresh.base, fresh.styleQuery)
    }

    /// The style's query items, each `&name=value` encoded (they always follow `placement`).
    static func styleQuery(_ style: FalconStyle?) -> String {
        let parameters = style?.queryParameters ?? []
        let capacity = parameters.reduce(0) { $0 + Writer.capacity(name: $1.0, value: $1.1) }
        return Writer.string(capacity: capacity) { writer in
            for (name, value) in parameters { writer.appendQueryItem(name, value, following: true) }
        }
    }

    /// `scheme://authority/path/ui/webview` for a valid base, else `nil`. Parsed by hand so the rules are
    /// the same on every platform.
    static func webviewBase(_ text: String) -> String? {
        // `URL.absoluteString` is ASCII in practice; there, bytes and `Character`s are the same thing except for
        // CR LF, which is one `Character`. Anything else takes the `Character` path below.
        let bytes = Array(text.utf8)
        if bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) { return asciiWebviewBase(bytes) }
        guard !text.contains("?"), !text.contains("#") else { return nil }
        guard let (rawScheme, rest) = FalconIdentifier.splitScheme(text) else { return nil }
        let scheme = rawScheme.lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let host = hostAndPort.hasPrefix("[") ? hostAndPort : (hostAndPort.split(separator: ":").first ?? "")
        guard !host.isEmpty else { return nil }
        // The URL carries the API key: plain HTTP only where nothing leaves the machine.
        guard scheme == "https" || LoopbackHost.contains(authority: authority) else { return nil }
        var path = String(rest[authorityEnd...])
        while path.hasSuffix("/") { path.removeLast() }
        return "\(scheme)://\(authority)\(path)/ui/webview"
    }

    /// ``webviewBase(_:)`` over ASCII bytes: the same steps without walking grapheme clusters.
    private static func asciiWebviewBase(_ bytes: [UInt8]) -> String? {
        guard !bytes.contains(UInt8(ascii: "?")), !bytes.contains(UInt8(ascii: "#")) else { return nil }
        // The scheme ends at the first `:` followed by `//`.
        var colon = 0
        while true {
            guard let next = bytes[colon...].firstIndex(of: UInt8(ascii: ":")) else { return nil }
            if bytes[(next + 1)...].starts(with: "//".utf8) {
                colon = next
                break
            }
            colon = next + 1
        }
        let scheme = bytes[..<colon].map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
        guard scheme.elementsEqual("http".utf8) || scheme.elementsEqual("https".utf8) else { return nil }
        let restStart = colon + 3
        let authorityEnd = bytes[restStart...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        let authority = bytes[restStart..<authorityEnd]
        let hostAndPort = authority.lastIndex(of: UInt8(ascii: "@")).map { authority[($0 + 1)...] } ?? authority
        // The host is the first non-empty piece between colons (or a bracketed IPv6 literal): none means no host.
        guard hostAndPort.contains(where: { $0 != UInt8(ascii: ":") }) else { return nil }
        guard
            scheme.elementsEqual("https".utf8)
                || LoopbackHost.contains(authority: Substring(decoding: authority, as: UTF8.self))
        else { return nil }
        var pathEnd = bytes.endIndex
        while pathEnd > authorityEnd, bytes[pathEnd - 1] == UInt8(ascii: "/") { pathEnd -= 1 }
        var base = scheme
        base += "://".utf8
        base += authority
        base += bytes[authorityEnd..<pathEnd]
        base += "/ui/webview".utf8
        return String(decoding: base, as: UTF8.self)
    }
}
