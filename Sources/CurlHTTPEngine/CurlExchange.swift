#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One HTTP request for the engine: what to send and how long it may take.
package struct CurlRequest: Sendable {
    /// The method, e.g. `POST`.
    package var method: String
    /// The absolute `http://` or `https://` address.
    package var url: String
    /// Every header to send, as the core built it. The engine adds only `Host` and `Content-Length`.
    package var headers: [String: String]
    /// The exact body bytes.
    package var body: Data
    /// The wall-clock limit for the whole request: DNS, connect, TLS, sending, the answer's head and body.
    package var deadline: Duration
    /// The limit for DNS, connect and TLS together (never more than ``deadline``).
    package var connectTimeout: Duration
    /// How long the request may go without receiving or sending a byte, in whole seconds; `nil` for no such
    /// limit (the deadline still holds).
    package var stallTimeout: Duration?
    /// The CA bundle (PEM file) that verifies the server's certificate; `nil` for the environment's
    /// `SSL_CERT_FILE`, else libcurl's built-in trust store.
    package var caBundlePath: String?
    /// Called on the engine's thread when the transfer ends (an answer or a failure, not a cancellation), with the
    /// time it took from the engine taking it to libcurl ending it. This is the engine's own measure: the caller's
    /// task may resume later when its executor's threads are busy, which says nothing about the deadline.
    package var ended: (@Sendable (Duration) -> Void)?

    /// Creates a request.
    package init(
        method: String, url: String, headers: [String: String], body: Data, deadline: Duration,
        connectTimeout: Duration, stallTimeout: Duration?, caBundlePath: String?
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.deadline = deadline
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.caBundlePath = caBundlePath
    }
}

/// The status and headers of the final answer (interim `1xx` answers are not kept). The body is never kept.
package struct CurlAnswer: Sendable, Hashable {
    /// The HTTP status code.
    package var statusCode: Int
    /// The answer's headers as received; a name given more than once has its values joined with `, `.
    package var headers: [String: String]

    /// Creates an answer.
    package init(statusCode: Int, headers: [String: String]) {
        self.statusCode = statusCode
        self.headers = headers
    }
}
