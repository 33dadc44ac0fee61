#if canImport(Darwin)
import Foundation
import URLSessionTransportSupport

/// The transport BinobanCore installs by default on Apple platforms, where `URLSession` is part of Foundation:
/// the exchange `URLSessionEventTransport` uses, with its default timeouts (Docs/Decisions/0203).
struct PlatformEventTransport: BinobanEventTransport {
    private let exchange = URLSessionExchange(session: nil, requestTimeout: 30, resourceTimeout: 60)

    func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        let answer = try await exchange.send(
            method: request.method, url: request.url, headers: request.headers, body: request.body)
        return BinobanTransportResponse(statusCode: answer.statusCode, headers: answer.headers)
    }
}
#endif
