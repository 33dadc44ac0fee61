#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A scripted transport that also writes each request into the scenario's output log.
struct RecordingTransport: BinobanEventTransport {
    let scripted: ScriptedTransport
    let log: OutputLog

    init(script: [ScriptedAnswer], defaultAnswer: ScriptedAnswer, log: OutputLog) {
        scripted = ScriptedTransport(script: script, defaultAnswer: defaultAnswer)
        self.log = log
    }

    func waitForRequests(count: Int) async throws {
        _ = try await scripted.waitForRequests(count: count)
    }

    func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        let json = GzipBody.isCompressed(request.body) ? (try? GzipBody.decompress(request.body)) : request.body
        let body = json.flatMap { try? JSONDecoder().decode(JSONValue.self, from: $0) } ?? .string("(not JSON)")
        var headers: [String: JSONValue] = [:]
        for (name, value) in request.headers { headers[name] = .string(value) }
        log.append([
            "type": "request", "method": .string(request.method), "url": .string(request.url.absoluteString),
            "headers": .object(headers), "writeKey": body["writeKey"] ?? .null, "sentAt": body["sentAt"] ?? .null,
            "events": body["batch"] ?? .null,
        ])
        return try await scripted.send(request)
    }
}
