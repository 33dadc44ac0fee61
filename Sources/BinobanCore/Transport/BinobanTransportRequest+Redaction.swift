#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request printed or dumped by a host's transport never shows its credentials: the `Authorization` header
/// reads `<redacted>` (the property itself keeps the value, for the transport to send). The body is shown as
/// its size: it holds the events' user data.
extension BinobanTransportRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `BinobanTransportRequest(POST https://host/b, headers: [Authorization: <redacted>, …], body: N bytes)`.
    public var description: String {
        let fields = redactedHeaders.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        return "BinobanTransportRequest(\(method) \(url.absoluteString), headers: [\(fields.joined(separator: ", "))]"
            + ", body: \(body.count) bytes)"
    }

    /// The same text as ``description``.
    public var debugDescription: String { description }

    /// `url`, `method`, `headers` (credentials redacted) and the body's byte count.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                (label: "url", value: url as Any),
                (label: "method", value: method as Any),
                (label: "headers", value: redactedHeaders as Any),
                (label: "bodyByteCount", value: body.count as Any),
            ],
            displayStyle: .struct
        )
    }

    /// The headers with the value of `Authorization` (any case) replaced.
    private var redactedHeaders: [String: String] {
        var headers = headers
        for name in headers.keys where name.lowercased() == "authorization" {
            headers[name] = "<redacted>"
        }
        return headers
    }
}
