public import BinobanCore
import URLSessionTransportSupport

#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// Carries Binoban batches to the ingest API with `URLSession`.
///
/// It sends the request's method, headers and body exactly as the core built them and returns the status
/// and response headers of whatever HTTP answer arrives, 2xx to 5xx alike; redirects are not followed (a
/// `3xx` is returned as it is), cookies are neither stored nor sent, and the answer is its head: its body is
/// read only when the head declares at most 64 KiB (to keep the connection), and none of it is kept.
/// Connections are kept for the next upload; a request that meets a kept
/// connection the server has just closed starts over, whole, on a fresh one. It throws
/// ``URLSessionEventTransportError`` only when no HTTP answer arrived: connection refused, timeout, TLS
/// failure, a connection that closed early. It never logs, and its errors never contain the URL, headers
/// or body.
///
/// ```swift
/// let transport = URLSessionEventTransport()                  // its own ephemeral session
/// let custom = URLSessionEventTransport(session: mySession, requestTimeout: .seconds(15))
/// ```
///
/// On Linux this target links FoundationNetworking (libcurl); `BinobanCore` itself never does.
public final class URLSessionEventTransport: BinobanEventTransport, Sendable {
    /// The default time without progress before a request fails: 30 seconds.
    public static let defaultRequestTimeout: Duration = .seconds(30)
    /// The default limit for a whole upload, answer included: 60 seconds.
    public static let defaultResourceTimeout: Duration = .seconds(60)

    private let exchange: URLSessionExchange

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - session: a session whose configuration (proxies, TLS settings, extra headers, connection limits)
    ///     the uploads use. The transport sends on a session of its own made from that configuration, so that
    ///     redirects, body re-sends and the answer's size are its own to decide; the given session's delegate is
    ///     not called. When `nil` (the default) the configuration is ephemeral, without cookies or cache. The
    ///     transport's session is invalidated when the transport is released.
    ///   - requestTimeout: how long a request may go without progress (connecting included) before it fails;
    ///     rounded up to whole seconds; zero or less means ``defaultRequestTimeout``.
    ///   - resourceTimeout: a wall-clock limit for a whole upload, from sending to the end of the answer,
    ///     whatever the server does. Rounded up to whole seconds; zero or less means ``defaultResourceTimeout``.
    public convenience init(
        session: URLSession? = nil,
        requestTimeout: Duration = URLSessionEventTransport.defaultRequestTimeout,
        resourceTimeout: Duration = URLSessionEventTransport.defaultResourceTimeout
    ) {
        self.init(session, requestTimeout, resourceTimeout, ended: nil)
    }

    /// Creates a transport that calls `ended`, on the thread that ends each request, with the time from `send` being
    /// called to its answer or failure (not a cancellation). The caller's task may resume much later when its
    /// executor's threads are busy, so the package's tests tell a deadline from a stall with it rather than with the
    /// time their task took to resume.
    package convenience init(
        session: URLSession?, requestTimeout: Duration, resourceTimeout: Duration,
        ended: @escaping @Sendable (Duration) -> Void
    ) {
        self.init(session, requestTimeout, resourceTimeout, ended: ended)
    }

    private init(
        _ session: URLSession?, _ requestTimeout: Duration, _ resourceTimeout: Duration,
        ended: (@Sendable (Duration) -> Void)?
    ) {
        exchange = URLSessionExchange(
            session: session,
            requestTimeout: WholeSecondsTimeout.seconds(requestTimeout, otherwise: Self.defaultRequestTimeout),
            resourceTimeout: WholeSecondsTimeout.seconds(resourceTimeout, otherwise: Self.defaultResourceTimeout),
            ended: ended
        )
    }

    /// Sends one batch and returns the server's answer, whatever its status.
    ///
    /// - Throws: ``URLSessionEventTransportError`` when no HTTP answer arrived, or `CancellationError` when
    ///   the calling task was cancelled.
    public func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        do {
            let answer = try await exchange.send(
                method: request.method, url: request.url, headers: request.headers, body: request.body)
            return BinobanTransportResponse(statusCode: answer.statusCode, headers: answer.headers)
        } catch let failure as URLSessionTransportFailure {
            throw URLSessionEventTransportError(failure)
        }
    }
}
