#if os(Linux)
import CurlHTTPEngine
import FoundationEssentials

/// Carries Binoban batches to the ingest API with libcurl, on Linux: the transport an instance uses there when
/// ``Configuration/transport`` is left at its default.
///
/// It sends the request's method, headers and body exactly as the core built them (libcurl adds only `Host` and
/// `Content-Length`) and returns the status and headers of whatever HTTP answer arrives, 2xx to 5xx alike;
/// redirects are not followed (a `3xx` is returned as it is), so the `Authorization` header never leaves the
/// origin; cookies are neither stored nor sent; at most 64 KiB of the answer's body is read and none of it is
/// kept. TLS verifies the server's certificate and host name, against ``caBundlePath`` when set, else the file
/// named by `SSL_CERT_FILE`, else libcurl's trust store. Connections are kept for the next upload; a request that
/// meets a kept connection the server has just closed starts over once, whole, on a fresh one.
///
/// Every transport of the process shares one engine: one thread that sleeps until a socket or a deadline needs
/// it, so a request that waits on a silent server costs no CPU. `libcurl.so.4` is loaded when the first batch is
/// sent; nothing is needed to build. It throws ``CurlEventTransportError`` only when no HTTP answer arrived, with
/// the reason; its errors never contain the URL, headers or body, and it never logs.
///
/// ```swift
/// let transport = CurlEventTransport()                                   // 30 s without progress, 60 s in all
/// let pinned = CurlEventTransport(caBundlePath: "/etc/ingest/ca.pem")    // trust only this bundle
/// ```
public final class CurlEventTransport: BinobanEventTransport, Sendable {
    /// The default time a request may go without progress (connecting included) before it fails: 30 seconds.
    public static let defaultRequestTimeout: Duration = .seconds(30)
    /// The default wall-clock limit for a whole upload, from DNS to the end of the answer: 60 seconds.
    public static let defaultResourceTimeout: Duration = .seconds(60)

    private let requestTimeout: Duration
    private let resourceTimeout: Duration
    /// The CA bundle (a PEM file) that verifies the ingest's certificate; `nil` for `SSL_CERT_FILE` when set, else
    /// libcurl's trust store.
    public let caBundlePath: String?
    /// Told how long each request took on the engine's clock (``init(requestTimeout:resourceTimeout:caBundlePath:ended:)``).
    private let ended: (@Sendable (Duration) -> Void)?

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - requestTimeout: how long a request may go without sending or receiving a byte, connecting and TLS
    ///     included, before it fails (counted in whole seconds once connected); zero or less means
    ///     ``defaultRequestTimeout``.
    ///   - resourceTimeout: the wall-clock limit for a whole upload, DNS and connecting included, whatever the
    ///     server does; zero or less means ``defaultResourceTimeout``.
    ///   - caBundlePath: a PEM file of the certificate authorities to trust instead of the system's; `nil` (the
    ///     default) uses `SSL_CERT_FILE` when it is set, else libcurl's trust store.
    public convenience init(
        requestTimeout: Duration = CurlEventTransport.defaultRequestTimeout,
        resourceTimeout: Duration = CurlEventTransport.defaultResourceTimeout,
        caBundlePath: String? = nil
    ) {
        self.init(requestTimeout, resourceTimeout, caBundlePath, ended: nil)
    }

    /// Creates a transport that calls `ended`, on the engine's thread, with the time each request took from the
    /// engine taking it to libcurl ending it (an answer or a failure, not a cancellation). This is the engine's own
    /// clock: the caller's task may resume much later when its executor's threads are busy, so the package's tests
    /// tell a deadline from a stall with it rather than with the time their task took to resume.
    package convenience init(
        requestTimeout: Duration, resourceTimeout: Duration, caBundlePath: String?,
        ended: @escaping @Sendable (Duration) -> Void
    ) {
        self.init(requestTimeout, resourceTimeout, caBundlePath, ended: ended)
    }

    /// The one place a timeout of zero or less falls back to its default.
    private init(
        _ requestTimeout: Duration, _ resourceTimeout: Duration, _ caBundlePath: String?,
        ended: (@Sendable (Duration) -> Void)?
    ) {
        self.requestTimeout = requestTimeout > .zero ? requestTimeout : Self.defaultRequestTimeout
        self.resourceTimeout = resourceTimeout > .zero ? resourceTimeout : Self.defaultResourceTimeout
        self.caBundlePath = caBundlePath
        self.ended = ended
    }

    /// Sends one batch and returns the server's answer, whatever its status.
    ///
    /// - Throws: ``CurlEventTransportError`` when no HTTP answer arrived, or `CancellationError` when the calling
    ///   task was cancelled.
    public func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        var exchange = CurlRequest(
            method: request.method, url: request.url.absoluteString, headers: request.headers, body: request.body,
            deadline: resourceTimeout, connectTimeout: requestTimeout, stallTimeout: requestTimeout,
            caBundlePath: caBundlePath)
        exchange.ended = ended
        do {
            let engine = try CurlEngine.shared.get()
            let answer = try await engine.send(exchange)
            return BinobanTransportResponse(statusCode: answer.statusCode, headers: answer.headers)
        } catch let failure as CurlFailure {
            throw CurlEventTransportError(failure)
        }
    }
}
#endif
