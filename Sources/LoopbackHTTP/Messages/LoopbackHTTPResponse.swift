#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What the server answers to one request.
///
/// The server always writes its own `Content-Length` (any `Content-Length` or `Transfer-Encoding` given here
/// is ignored) and adds `Connection: close` when it is about to close the connection. Put
/// `Connection: close` in ``headers`` to make the server close after answering.
///
/// ```swift
/// let tooMany = LoopbackHTTPResponse(status: 429, headers: ["Retry-After": "2"])
/// ```
public struct LoopbackHTTPResponse: Sendable, Hashable {
    /// The status code. A value outside `200...999` cannot be a final answer and is sent as `500`.
    public var status: Int
    /// Extra header fields to send, in order.
    public var headers: LoopbackHTTPHeaders
    /// The body bytes.
    public var body: Data
    /// Whether the server closes the connection without writing any answer (a server that hangs up).
    public private(set) var closesConnectionWithoutAnswer: Bool

    /// Creates an answer.
    public init(status: Int = 200, headers: LoopbackHTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
        closesConnectionWithoutAnswer = false
    }

    /// Creates an answer with a UTF-8 text body.
    public init(status: Int = 200, headers: LoopbackHTTPHeaders = [:], text: String) {
        self.init(status: status, headers: headers, body: Data(text.utf8))
    }

    /// `200 OK` with an empty body.
    public static let ok = LoopbackHTTPResponse(status: 200)

    /// An answer with the given status and headers and an empty body.
    public static func status(_ status: Int, headers: LoopbackHTTPHeaders = [:]) -> LoopbackHTTPResponse {
        LoopbackHTTPResponse(status: status, headers: headers)
    }

    /// No answer at all: the server reads the request, then closes the connection.
    public static let closeConnectionWithoutAnswer: LoopbackHTTPResponse = {
        var response = LoopbackHTTPResponse(status: 0)
        response.closesConnectionWithoutAnswer = true
        return response
    }()
}
