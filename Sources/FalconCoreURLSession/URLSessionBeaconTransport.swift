public import FalconCore

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
/// nor sent, nothing is cached, and nothing is logged; its errors carry no URL or body. It throws
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

    private let session: URLSession
    private let ownsSession: Bool
    private let timeout: TimeInterval
    private let redirectRefusal = RedirectRefusal()

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - session: the session to use; the host keeps it configured and alive. When `nil` (the default) the
    ///     transport creates an ephemeral session without cookies or cache, and invalidates it when the
    ///     transport is released.
    ///   - timeout: how long a beacon may go without progress (connecting included); on the transport's own
    ///     session also the limit for the whole request. Rounded up to whole seconds; zero or less means
    ///     ``defaultTimeout``.
    public init(session: URLSession? = nil, timeout: Duration = URLSessionBeaconTransport.defaultTimeout) {
        let seconds = Self.seconds(timeout) ?? Self.seconds(Self.defaultTimeout) ?? 10
        self.timeout = seconds
        if let session {
            self.session = session
            ownsSession = false
        } else {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = seconds
            configuration.timeoutIntervalForResource = seconds
            configuration.httpCookieAcceptPolicy = .never
            configuration.httpShouldSetCookies = false
            configuration.httpCookieStorage = nil
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            self.session = URLSession(configuration: configuration, delegate: redirectRefusal, delegateQueue: nil)
            ownsSession = true
        }
    }

    deinit {
        if ownsSession {
            session.finishTasksAndInvalidate()
        }
    }

    /// Sends one beacon and returns the status of the server's answer.
    ///
    /// - Throws: ``URLSessionBeaconTransportError`` when no HTTP answer arrived, or `CancellationError` when
    ///   the calling task was cancelled.
    public func send(_ request: FalconBeaconRequest) async throws -> FalconBeaconResponse {
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        urlRequest.httpShouldHandleCookies = false

        let response: URLResponse
        do {
            (_, response) = try await session.data(for: urlRequest, delegate: redirectRefusal)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw URLSessionBeaconTransportError(error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw URLSessionBeaconTransportError(reason: .notHTTP, urlErrorCode: nil)
        }
        return FalconBeaconResponse(statusCode: http.statusCode)
    }

    /// `duration` in whole seconds, rounded up, or `nil` when it is not positive.
    ///
    /// URLSession on Linux arms its timer with the timeout truncated to whole seconds, so a sub-second value
    /// would fire before the request is sent (Docs/Decisions/0302).
    private static func seconds(_ duration: Duration) -> TimeInterval? {
        let (seconds, attoseconds) = duration.components
        let total = Double(seconds) + Double(attoseconds) / 1e18
        return total > 0 ? total.rounded(.up) : nil
    }
}
