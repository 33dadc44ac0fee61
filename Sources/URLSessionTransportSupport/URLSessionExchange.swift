import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request at a time through `URLSession` exactly as given and returns the status and
/// headers of whatever answer arrives: the plumbing both public URLSession transports share.
///
/// Redirects are not followed (a `3xx` is returned as it is), cookies are neither stored nor sent, and
/// nothing is cached or logged. On its own session (when none is given) it also invalidates that session
/// when it is released.
package final class URLSessionExchange: Sendable {
    /// The status and headers of an HTTP answer; the body is not kept.
    package struct Answer: Sendable, Hashable {
        /// The HTTP status code.
        package var statusCode: Int
        /// The response headers as URLSession reports them.
        package var headers: [String: String]
    }

    private let session: URLSession
    private let ownsSession: Bool
    private let requestTimeout: TimeInterval
    private let redirectRefusal = RedirectRefusal()

    /// Creates an exchange.
    ///
    /// - Parameters:
    ///   - session: the host's session, used as it is configured; `nil` creates an ephemeral session without
    ///     cookies or cache that is invalidated when the exchange is released.
    ///   - requestTimeout: seconds a request may go without progress (connecting included), set on every
    ///     request and, for an own session, on its configuration.
    ///   - resourceTimeout: seconds a whole request may take; applies only to an own session.
    package init(session: URLSession?, requestTimeout: TimeInterval, resourceTimeout: TimeInterval) {
        self.requestTimeout = requestTimeout
        if let session {
            self.session = session
            ownsSession = false
        } else {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = requestTimeout
            configuration.timeoutIntervalForResource = resourceTimeout
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

    /// Sends `method` with `headers` and `body` to `url` and returns the answer, whatever its status.
    ///
    /// - Throws: ``URLSessionTransportFailure`` when no HTTP answer arrived, or `CancellationError` when the
    ///   calling task was cancelled.
    package func send(method: String, url: URL, headers: [String: String], body: Data) async throws -> Answer {
        var urlRequest = URLRequest(
            url: url,
            cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: requestTimeout
        )
        urlRequest.httpMethod = method
        for (name, value) in headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        #if canImport(FoundationNetworking)
        // Each request on a connection of its own (Decision 0306): when a server closes a reused connection
        // without answering, libcurl silently retries the request on a new connection, and under
        // FoundationNetworking that retry sends the headers but never the body, so the request waits out its
        // whole timeout. A request that is the only one on its connection is never retried that way: it fails at
        // once and the pipeline's own retry takes over.
        if !headers.keys.contains(where: { $0.lowercased() == "connection" }) {
            urlRequest.setValue("close", forHTTPHeaderField: "Connection")
        }
        #endif
        urlRequest.httpBody = body
        urlRequest.httpShouldHandleCookies = false

        let response: URLResponse
        do {
            let (session, delegate, request) = (self.session, redirectRefusal, urlRequest)
            (_, response) = try await PromptCancellation.run {
                try await session.data(for: request, delegate: delegate)
            }
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw URLSessionTransportFailure(classifying: error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw URLSessionTransportFailure(.notHTTP)
        }
        var responseHeaders: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            guard let name = key as? String else { continue }
            responseHeaders[name] = (value as? String) ?? String(describing: value)
        }
        return Answer(statusCode: http.statusCode, headers: responseHeaders)
    }
}
