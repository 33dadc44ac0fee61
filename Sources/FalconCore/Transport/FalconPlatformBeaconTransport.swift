#if canImport(Darwin)
import Foundation
import URLSessionTransportSupport

/// The beacon transport FalconCore installs by default on Apple platforms, where `URLSession` is part of
/// Foundation: the same exchange as `URLSessionBeaconTransport` (one `POST`, no cookies, no cache, redirects
/// returned, 10-second timeout). Linux has no default (Docs/Decisions/0103).
struct FalconPlatformBeaconTransport: FalconBeaconTransport {
    private let exchange = URLSessionExchange(session: nil, requestTimeout: 10, resourceTimeout: 10)

    func send(_ request: FalconBeaconRequest) async throws -> FalconBeaconResponse {
        let answer = try await exchange.send(
            method: request.method, url: request.url, headers: request.headers, body: request.body)
        return FalconBeaconResponse(statusCode: answer.statusCode)
    }
}
#endif
