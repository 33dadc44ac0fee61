#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One diagnostic beacon to deliver: a `POST` of a small JSON body.
///
/// The core builds the request; a transport only moves bytes. New fields may be added without breaking
/// transports, which is why the request is a struct.
public struct FalconBeaconRequest: Sendable, Hashable {
    /// Where to post the beacon (`FalconConfig.diagnosticsURL` or the default endpoint).
    public var url: URL
    /// The HTTP method; always `POST` today.
    public var method: String
    /// Request headers. Never carries the API key, cookies or a session id.
    public var headers: [String: String]
    /// The JSON body: exactly the six beacon keys.
    public var body: Data

    /// Creates a beacon request.
    package init(url: URL, method: String = "POST", headers: [String: String], body: Data) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }
}

/// What the server answered to a beacon. The core ignores it (beacons are fire-and-forget); it exists so
/// transports and tests can report what happened.
public struct FalconBeaconResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var statusCode: Int

    /// Creates a response.
    public init(statusCode: Int) {
        self.statusCode = statusCode
    }
}

/// The edge that carries diagnostic beacons to the network.
///
/// One attempt per beacon: the core never retries and ignores both the response and any error thrown.
/// Implementations must not log the body or the URL's query.
public protocol FalconBeaconTransport: Sendable {
    /// Sends one beacon and returns the server's answer, or throws on a network failure.
    func send(_ request: FalconBeaconRequest) async throws -> FalconBeaconResponse
}
