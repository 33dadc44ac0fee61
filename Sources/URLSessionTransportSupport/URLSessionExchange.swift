import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request at a time through `URLSession` exactly as given and returns the status and
/// headers of whatever answer arrives: the plumbing both public URLSession transports share.
///
/// Every request, on every session:
/// - keeps its connection for the next request (TLS handshakes and the trust store's loading are paid once per
///   connection, not per request), and starts over once on a fresh connection when a kept one turns out to be
///   closed before any answer byte (``ExchangeCallMachine``);
/// - is answered by its first answer: a `3xx` is returned as it is, never followed;
/// - takes the answer's head as the answer and stops there, unless the head declares a body of at most
///   ``ExchangeCallMachine/answerBodyLimit`` bytes, which is read to its end so that the connection can be kept;
///   no body byte is kept;
/// - ends by its wall-clock deadline (`resourceTimeout`) whatever the server does, on Linux too, and at once
///   when the calling task is cancelled;
/// - stores and sends no cookies, and is neither cached nor logged.
///
/// The exchange always sends on a session of its own, so that its delegate sees every request: given a host's
/// session, it makes one from that session's configuration (proxies, TLS settings, extra headers, connection
/// limits); the host's session delegate is not called. It invalidates its session when it is released.
package final class URLSessionExchange: Sendable {
    /// The status and headers of an HTTP answer; the body is not kept.
    package struct Answer: Sendable, Hashable {
        /// The HTTP status code.
        package var statusCode: Int
        /// The response headers as URLSession reports them.
        package var headers: [String: String]

        /// Creates an answer.
        package init(statusCode: Int, headers: [String: String]) {
            self.statusCode = statusCode
            self.headers = headers
        }

        /// The answer `response` carries, or `notHTTP` when it is not an HTTP answer.
        static func of(_ response: URLResponse?) -> Result<Answer, URLSessionTransportFailure> {
            guard let http = response as? HTTPURLResponse else {
                return .failure(URLSessionTransportFailure(.notHTTP))
            }
            var headers: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                guard let name = key as? String else { continue }
                headers[name] = (value as? String) ?? String(describing: value)
            }
            return .success(Answer(statusCode: http.statusCode, headers: headers))
        }
    }

    private let session: URLSession
    private let delegate = ExchangeDelegate()
    private let requestTimeout: TimeInterval
    private let resourceTimeout: TimeInterval
    private let ended: (@Sendable (Duration) -> Void)?

    /// Creates an exchange.
    ///
    /// - Parameters:
    ///   - session: the host's session, whose configuration the exchange's own session takes; `nil` means an
    ///     ephemeral configuration without cookies or cache.
    ///   - requestTimeout: seconds a request may go without progress (connecting included).
    ///   - resourceTimeout: seconds a whole request may take, from sending to the end of the answer.
    ///   - ended: called, on the thread that ends each request, with the time from `send` being called to its
    ///     answer or failure (not a cancellation): the package's tests tell a deadline from a stall with it rather
    ///     than with the time their task took to resume.
    package init(
        session: URLSession?, requestTimeout: TimeInterval, resourceTimeout: TimeInterval,
        ended: (@Sendable (Duration) -> Void)? = nil
    ) {
        self.requestTimeout = requestTimeout
        self.resourceTimeout = resourceTimeout
        self.ended = ended
        let configuration: URLSessionConfiguration
        if let session {
            configuration = session.configuration
        } else {
            configuration = URLSessionConfiguration.ephemeral
            configuration.httpCookieAcceptPolicy = .never
            configuration.httpShouldSetCookies = false
            configuration.httpCookieStorage = nil
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        }
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.timeoutIntervalForResource = resourceTimeout
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `method` with `headers` and `body` to `url` and returns the answer, whatever its status.
    ///
    /// - Throws: ``URLSessionTransportFailure`` when no HTTP answer arrived, or `CancellationError` when the
    ///   calling task was cancelled.
    package func send(method: String, url: URL, headers: [String: String], body: Data) async throws -> Answer {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: requestTimeout)
        request.httpMethod = method
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.httpShouldHandleCookies = false
        request.httpBody = body
        let call = ExchangeCall(
            session: session, request: request, delegate: delegate, timeout: resourceTimeout, ended: ended)
        do {
            return try await call.answer()
        } catch is CancellationError {
            throw CancellationError()
        } catch let failure as URLSessionTransportFailure {
            throw failure
        } catch {
            throw URLSessionTransportFailure(classifying: error)
        }
    }
}
