#if os(Linux)
import CurlHTTPEngine
import FoundationEssentials

/// Carries Falcon diagnostic beacons with libcurl, on Linux: one `POST` per beacon, one attempt. FalconCore uses it
/// by default there.
///
/// It sends the request's method, headers and JSON body exactly as the core built them and returns the status of
/// whatever HTTP answer arrives (a `3xx` is returned, not followed). Cookies are neither stored nor sent, at most
/// 64 KiB of the answer's body is read (none kept), TLS verifies the certificate and host name (against
/// ``caBundlePath``, else `SSL_CERT_FILE`, else libcurl's trust store), and nothing is logged; its errors carry
/// no URL or body. Connections are kept for the next beacon, on the engine every libcurl transport of the process
/// shares (one thread, no CPU while waiting). It throws ``CurlBeaconTransportError`` only when no HTTP answer
/// arrived; the core ignores both outcomes.
///
/// ```swift
/// let transport = CurlBeaconTransport()   // 10-second limit per beacon
/// ```
public final class CurlBeaconTransport: FalconBeaconTransport, Sendable {
    /// The default limit for a beacon, from DNS to the end of the answer: 10 seconds. Beacons are best effort,
    /// so it is short.
    public static let defaultTimeout: Duration = .seconds(10)

    private let timeout: Duration
    /// The CA bundle (a PEM file) that verifies the server's certificate; `nil` for `SSL_CERT_FILE` when set, else
    /// libcurl's trust store.
    public let caBundlePath: String?

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - timeout: the wall-clock limit for a whole beacon, DNS, connecting and the answer included; zero or less
    ///     means ``defaultTimeout``.
    ///   - caBundlePath: a PEM file of the certificate authorities to trust instead of the system's; `nil` (the
    ///     default) uses `SSL_CERT_FILE` when it is set, else libcurl's trust store.
    public init(timeout: Duration = CurlBeaconTransport.defaultTimeout, caBundlePath: String? = nil) {
        self.timeout = timeout > .zero ? timeout : Self.defaultTimeout
        self.caBundlePath = caBundlePath
    }

    /// Sends one beacon and returns the status of the server's answer.
    ///
    /// - Throws: ``CurlBeaconTransportError`` when no HTTP answer arrived, or `CancellationError` when the calling
    ///   task was cancelled.
    public func send(_ request: FalconBeaconRequest) async throws -> FalconBeaconResponse {
        let exchange = CurlRequest(
            method: request.method, url: request.url.absoluteString, headers: request.headers, body: request.body,
            deadline: timeout, connectTimeout: timeout, stallTimeout: timeout, caBundlePath: caBundlePath)
        do {
            let engine = try CurlEngine.shared.get()
            let answer = try await engine.send(exchange)
            return FalconBeaconResponse(statusCode: answer.statusCode)
        } catch let failure as CurlFailure {
            throw CurlBeaconTransportError(failure)
        }
    }
}
#endif
