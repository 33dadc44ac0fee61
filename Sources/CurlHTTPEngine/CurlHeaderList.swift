import CCurlShim

/// A request's headers as libcurl's header list (`CURLOPT_HTTPHEADER`), built once and shared by every request
/// that sends the same headers: the core sends the same few headers with every batch, so the engine keeps the
/// last list and only builds another when they change. Each transfer holds the list it was given, because libcurl
/// reads it until the transfer ends; it is freed when the last holder lets it go.
///
/// Exactly the given headers are sent: an empty value removes a header libcurl would add on its own (`Accept`,
/// `Expect: 100-continue`, a form `Content-Type`) and `Name;` sends a header whose value is empty.
final class CurlHeaderList {
    /// The headers the list was built from.
    let headers: [String: String]
    /// The `curl_slist *`; `nil` only when libcurl could not allocate it.
    let pointer: OpaquePointer?

    /// The list for `headers`, or `nil` when a name is empty or a name or value holds CR, LF or NUL (it would end
    /// the header line early).
    init?(_ headers: [String: String]) {
        var list: OpaquePointer?
        var given = Set<String>()
        for (name, value) in headers {
            guard !name.isEmpty, Self.isSafe(name), Self.isSafe(value) else {
                if let list { ccurl_slist_free_all(list) }
                return nil
            }
            given.insert(name.lowercased())
            list = ccurl_slist_append(list, value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        for name in ["Accept", "Expect", "Content-Type"] where !given.contains(name.lowercased()) {
            list = ccurl_slist_append(list, "\(name):")
        }
        self.headers = headers
        pointer = list
    }

    deinit {
        if let pointer { ccurl_slist_free_all(pointer) }
    }

    private static func isSafe(_ text: String) -> Bool {
        !text.utf8.contains { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") || $0 == 0 }
    }
}
