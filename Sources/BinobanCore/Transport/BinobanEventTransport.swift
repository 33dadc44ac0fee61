#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One batch upload: `POST https://{apiHost}/b` with the batch envelope as a JSON body.
///
/// Built by the core, moved by a transport. New fields may be added without breaking transports.
public struct BinobanTransportRequest: Sendable, Hashable {
    /// The upload endpoint.
    public var url: URL
    /// The HTTP method; always `POST` today.
    public var method: String
    /// Request headers: `Content-Type`, `User-Agent`, `Authorization`, and `Content-Encoding: gzip` when
    /// ``Configuration/compressesUploads`` is set.
    public var headers: [String: String]
    /// The batch envelope `{"batch":[…],"sentAt":"…","writeKey":"…"}`, gzip-compressed when
    /// ``Configuration/compressesUploads`` is set.
    public var body: Data

    /// Creates an upload request.
    public init(url: URL, method: String = "POST", headers: [String: String], body: Data) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }
}

/// The server's answer to an upload.
public struct BinobanTransportResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var statusCode: Int
    /// Response headers as received. Look them up with ``value(forHeader:)``, which ignores case.
    public var headers: [String: String]

    /// Creates a response.
    public init(statusCode: Int, headers: [String: String] = [:]) {
        self.statusCode = statusCode
        self.headers = headers
    }

    /// The value of the header `name`, compared without regard to case.
    public func value(forHeader name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.key.lowercased() == wanted }?.value
    }
}

/// The edge that carries batches to the ingest API.
///
/// Return the response for every HTTP answer, whatever its status; throw only when no answer arrived
/// (connection refused, timeout, TLS failure). The core decides what each status means.
public protocol BinobanEventTransport: Sendable {
    /// Sends one batch and returns the server's answer, or throws when there was none.
    func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse
}
