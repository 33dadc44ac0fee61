public import FalconCore
import URLSessionTransportSupport

#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// Carries Falcon diagnostic beacons with `URLSession`: one `POST` per beacon, one attempt.
///
/// It sends the request's method, headers and JSON body exactly as the core built them and returns the
/// status of whatever HTTP answer arrives (a `3xx` is returned, not followed). Cookies are neither stored
/// nor sent, nothing is cached, the answer is its head (a body is read only when it declares at most 64 KiB),
/// and nothing is logged; its errors
/// carry no URL or body. Connections are kept for the next beacon. It throws
/// ``URLSessionBeaconTransportError`` only when no HTTP answer arrived. The core ignores both outcomes, so
/// a server that is down or answers `500` changes nothing the host can see.
///
/// ```swift
/// let transport = URLSessionBeaconTransport()   // ephemeral session, 10-second timeout
/// ```
///
/// On Linux this target links FoundationNetworking (libcurl); `FalconCore` itself never does.
public final class URLSessionBeaconTransport: FalconBeaconTransport, Sendable {
    /// The default time a beacon may take without progress: 10 seconds. Beacons are best effort, so the
    /// timeout is short.
    public static let defaultTimeout: Duration = .seconds(10)

    private let exchange: URLSessionExchange

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - session: a session whose configuration (proxies, TLS settings, extra headers, connection limits)
    ///     the beacons use. The transport sends on a session of its own made from that configuration, so that
    ///     redirects and the answer's size are its own to decide; the given session's delegate is not called.
    ///     When `nil` (the default) the configuration is ephemeral, without cookies or cache. The transport's
    ///     session is invalidated when the transport is released.
    ///   - timeout: how long a beacon may go without progress (connecting included), and the wall-clock limit
    ///     for the whole request. Rounded up to whole seconds; zero or less means ``defaultTimeout``.
    public init(session: URLSession? = nil, timeout: Duration = URLSessionBeaconTransport.defaultTimeout) {
        let seconds = WholeSecondsTimeout.seconds(timeout, otherwise: Self.defaultTimeout)
        exchange = URLSessionExchange(session: session, requestTimeout: seconds, resourceTimeout: seconds)
    }

    /// Sends one beacon and returns the status of the server's answer.
    ///
    /// - Throws: ``URLSessionBeaconTransportError`` when no HTTP answer arrived, or `CancellationError` when
    ///   the calling task was cancelled.
    public func send(_ request: FalconBeaconRequest) async throws -> FalconBeaconResponse {
        do {
            let answer = try await exchange.send(
                method: request.method, url: request.url, headers: request.headers, body: request.body)
            return FalconBeaconResponse(statusCode: answer.statusCode)
        } catch let failure as URLSessionTransportFailure {
            throw URLSessionBeaconTransportError(failure)
        }
    }
}
