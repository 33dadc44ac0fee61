public import BinobanCore

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
/// `3xx` is returned as it is) and cookies are neither stored nor sent. It throws
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
    /// The default limit for a whole upload on the transport's own session: 60 seconds.
    public static let defaultResourceTimeout: Duration = .seconds(60)

    private let session: URLSession
    private let ownsSession: Bool
    private let requestTimeout: TimeInterval
    private let redirectRefusal = RedirectRefusal()

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - session: the session to use; the host keeps it configured and alive. When `nil` (the default) the
    ///     transport creates an ephemeral session without cookies or cache, and invalidates it when the
    ///     transport is released.
    ///   - requestTimeout: how long a request may go without progress (connecting included) before it fails;
    ///     rounded up to whole seconds; zero or less means ``defaultRequestTimeout``.
    ///   - resourceTimeout: the limit for a whole upload; applies only to the transport's own session. Rounded
    ///     up to whole seconds; zero or less means ``defaultResourceTimeout``.
    public init(
        session: URLSession? = nil,
        requestTimeout: Duration = URLSessionEventTransport.defaultRequestTimeout,
        resourceTimeout: Duration = URLSessionEventTransport.defaultResourceTimeout
    ) {
        let requestSeconds = Self.seconds(requestTimeout) ?? Self.seconds(Self.defaultRequestTimeout) ?? 30
        self.requestTimeout = requestSeconds
        if let session {
            self.session = session
            ownsSession = false
        } else {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = requestSeconds
            configuration.timeoutIntervalForResource =
                Self.seconds(resourceTimeout) ?? Self.seconds(Self.defaultResourceTimeout) ?? 60
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

    /// Sends one batch and returns the server's answer, whatever its status.
    ///
    /// - Throws: ``URLSessionEventTransportError`` when no HTTP answer arrived, or `CancellationError` when
    ///   the calling task was cancelled.
    public func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        var urlRequest = URLRequest(
            url: request.url,
            cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: requestTimeout
        )
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
            throw URLSessionEventTransportError(error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw URLSessionEventTransportError(reason: .notHTTP, urlErrorCode: nil)
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            guard let name = key as? String else { continue }
            headers[name] = (value as? String) ?? String(describing: value)
        }
        return BinobanTransportResponse(statusCode: http.statusCode, headers: headers)
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
