#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One request exactly as the server received it.
///
/// The server records every complete request before it answers, so by the time a client has the response
/// the request is already visible in ``LoopbackHTTPServer/requests``.
public struct LoopbackHTTPRequest: Sendable, Hashable {
    /// The position of this request in arrival order across the whole server, starting at 0.
    public var arrivalIndex: Int
    /// The position of the connection that carried it, in accept order starting at 0. Two requests with the
    /// same value travelled on one kept-alive connection.
    public var connectionIndex: Int
    /// The method token, such as `POST`.
    public var method: String
    /// The request target as sent, such as `/b?x=1`.
    public var target: String
    /// The path part of the target, without the query.
    public var path: String
    /// The raw query after `?`, still percent-encoded; `nil` when the target has no `?`.
    public var query: String?
    /// The protocol version, `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    /// The header fields in arrival order, names as sent.
    public var headers: LoopbackHTTPHeaders
    /// The body bytes after any chunked transfer coding was removed.
    public var body: Data

    /// Creates a request value (the server builds these; tests may build their own for responder checks).
    public init(
        arrivalIndex: Int,
        connectionIndex: Int,
        method: String,
        target: String,
        version: String = "HTTP/1.1",
        headers: LoopbackHTTPHeaders,
        body: Data
    ) {
        self.arrivalIndex = arrivalIndex
        self.connectionIndex = connectionIndex
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        let pathAndQuery = Self.originForm(of: target)
        if let mark = pathAndQuery.firstIndex(of: "?") {
            path = String(pathAndQuery[..<mark])
            query = String(pathAndQuery[pathAndQuery.index(after: mark)...])
        } else {
            path = String(pathAndQuery)
            query = nil
        }
    }

    /// The value of the header `name`, ignoring case (repeated fields joined with `", "`).
    public func value(forHeader name: String) -> String? {
        headers[name]
    }

    /// The body decoded as UTF-8, with invalid bytes replaced.
    public var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }

    /// The query split into percent-decoded name–value pairs, in order. A `+` stays a `+`; a malformed escape
    /// is kept literally. Empty when there is no query.
    public var queryItems: [LoopbackHTTPQueryItem] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let equals = pair.firstIndex(of: "=") {
                return LoopbackHTTPQueryItem(
                    name: percentDecoded(pair[..<equals]),
                    value: percentDecoded(pair[pair.index(after: equals)...])
                )
            }
            return LoopbackHTTPQueryItem(name: percentDecoded(pair), value: nil)
        }
    }

    /// The path and query of a target in origin form; an absolute-form target (`http://host/p?q`) is reduced
    /// to `/p?q`.
    private static func originForm(of target: String) -> Substring {
        guard let schemeEnd = target.firstRange(of: "://") else { return target[...] }
        let afterAuthority = target[schemeEnd.upperBound...]
        guard let slash = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let rest = afterAuthority[slash...]
        return rest.first == "?" ? Substring("/" + rest) : rest
    }
}

/// One `name=value` pair of a request's query, percent-decoded.
public struct LoopbackHTTPQueryItem: Sendable, Hashable {
    /// The decoded name.
    public var name: String
    /// The decoded value; `nil` when the pair had no `=`.
    public var value: String?

    /// Creates a query item.
    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }
}

/// Decodes `%XX` escapes as UTF-8 bytes; anything malformed is kept as written.
private func percentDecoded(_ text: Substring) -> String {
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
        if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
            let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
        {
            output.append(high << 4 | low)
            index += 3
        } else {
            output.append(bytes[index])
            index += 1
        }
    }
    return String(decoding: output, as: UTF8.self)
}

/// The value of one hexadecimal digit, or `nil`.
func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
}
