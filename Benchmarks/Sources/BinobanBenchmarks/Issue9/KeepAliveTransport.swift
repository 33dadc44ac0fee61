import BinobanCore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A plain URLSession transport that lets connections be reused, for one comparison only: what the default
/// transports' `Connection: close` on Linux (Decision 0306) costs in CPU. Not a safe transport on Linux: a reused
/// connection that the server closes without answering hangs until the request timeout there.
struct KeepAliveTransport: BinobanEventTransport {
    private let session = URLSession(configuration: .ephemeral)

    func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let (_, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields { headers[name] = value }
        return BinobanTransportResponse(statusCode: http.statusCode, headers: headers)
    }
}
