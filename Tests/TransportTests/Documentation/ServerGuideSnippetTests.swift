import BinobanCore
import FalconCore
import Foundation
import LoopbackHTTP
import Testing

// The code blocks of `Docs/GettingStartedOnAServer.md` marked "compiled", verbatim except `private` (the guide
// declares them at the top level of an app; here they must not clash with other files of the test target).
// Change the guide and this file together.

private func makeAnalytics(apiKey: String, apiHost: String, dataDirectory: URL) -> Binoban {
    BinobanFactory.shared.create(apiKey: apiKey, sourceIdentifier: "orders-service") { config in
        config.apiHost = apiHost  // "api.binoban.io"
        config.storageDirectory = dataDirectory.appendingPathComponent("binoban", isDirectory: true)
        config.startsAutomatically = false  // the server's task group runs it (section 4)
        config.flushAt = 100  // a busy server sends bigger batches
        config.flushInterval = 10
        config.shutdownGracePeriod = .seconds(30)  // how long run() drains once cancelled
        config.errorHandler = { error in
            // Called on whichever thread met the problem: keep it short, never call back into the instance.
            print("binoban \(error.kind): \(error.message)")
        }
    }
}

private func orderShipped(_ binoban: Binoban, customerId: String, orderId: String, total: Double) {
    binoban.track(
        name: "order_shipped",
        properties: ["order_id": .string(orderId), "total": .double(total)],
        as: BinobanEventIdentity(userId: customerId)
    )
}

private func serve(_ binoban: Binoban) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await binoban.run() }
        // … run the HTTP server here; when it returns: …
        group.cancelAll()  // run() drains and returns
        try await group.waitForAll()  // rethrows run()'s error (alreadyRunning), if any
    }
}

private func placementLink(apiKey: String, customerEmail: String, view: String) -> URL? {
    let attributes: JSONValue = [
        "user_details": ["email": .string(customerEmail)],
        "placement_details": ["layout_id": "EMAIL_FOOTER", "view": .string(view)],
    ]
    let config = FalconConfig(placementMapping: ["ORDER_STATUS": "p-123"])
    // Unmapped views fall back to the raw view, as in the SDK.
    switch config.placementURL(attributes: attributes, apiKey: apiKey, sessionId: UUID().uuidString) {
    case .success(let url):
        return url
    case .failure(let diagnostic):
        // attributeMappingFailed (no view, no matching layout_id) or urlConstructionFailed (a blank key)
        print("no placement link:", diagnostic.code.rawValue, diagnostic.message)
        return nil
    }
}

@Suite("Docs/GettingStartedOnAServer.md: the compiled examples")
struct ServerGuideSnippetTests {
    @Test("A server instance tracks per customer, drains on cancellation to a real ingest, and keeps files private")
    func serverInstance() async throws {
        let ingest = LoopbackHTTPServer()
        let port = try ingest.start()
        defer { ingest.stop() }
        let dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("server-guide-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dataDirectory) }

        let binoban = makeAnalytics(apiKey: "KEY", apiHost: "http://127.0.0.1:\(port)", dataDirectory: dataDirectory)
        #expect(binoban.isOperational)
        orderShipped(binoban, customerId: "customer-42", orderId: "o-1", total: 99.5)
        orderShipped(binoban, customerId: "customer-7", orderId: "o-2", total: 12)
        try await serve(binoban)  // cancelled at once: run() starts the pipeline, then drains

        let requests = try await ingest.waitForRequests(count: 1)
        #expect(requests.count == 1)
        let body = try JSONDecoder().decode(JSONValue.self, from: try #require(requests.first?.body))
        let events = try #require(body["batch"]?.arrayValue)
        #expect(events.map { $0["userId"] } == ["customer-42", "customer-7"])
        #expect(events.map { $0["event"] } == ["order_shipped", "order_shipped"])
        #expect(events.first?["properties"] == ["order_id": "o-1", "total": 99.5])
        #expect(body["writeKey"] == "orders-service")
        // The instance's own identity was never changed by the per-call identities.
        #expect(binoban.userId() == nil)

        // The guide's permission claims: a 0700 directory it created, 0600 files.
        let directory = dataDirectory.appendingPathComponent("binoban", isDirectory: true)
        let directoryMode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions]
        #expect((directoryMode as? NSNumber)?.intValue == 0o700)
        let identity = directory.appendingPathComponent("orders-service.identity.json")
        let identityMode = try FileManager.default.attributesOfItem(atPath: identity.path)[.posixPermissions]
        #expect((identityMode as? NSNumber)?.intValue == 0o600)

        // After run() returned the instance is stopped for good: shutdown has nothing left to do.
        #expect(await binoban.shutdown(gracePeriod: .seconds(1)).outcome == .interrupted)
    }

    @Test("The server-rendered placement link is the SDK's URL; an absent view and layout id give nil")
    func placementLinks() throws {
        let link = try #require(placementLink(apiKey: "KEY", customerEmail: "jane@example.com", view: "ORDER_STATUS"))
        #expect(
            link.absoluteString.hasPrefix("https://pr.falconlabs.us/ui/webview?placement=p-123&apiKey=KEY&sessionId="))
        #expect(link.absoluteString.hasSuffix("&at.email=jane%40example.com"))
        let unmapped = try #require(placementLink(apiKey: "KEY", customerEmail: "jane@example.com", view: "RECEIPT"))
        #expect(unmapped.absoluteString.contains("placement=RECEIPT&"))
        #expect(placementLink(apiKey: " ", customerEmail: "jane@example.com", view: "ORDER_STATUS") == nil)
    }
}
