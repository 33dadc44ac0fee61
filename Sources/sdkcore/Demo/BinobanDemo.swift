import BinobanCore
import BinobanCoreURLSession
import LoopbackHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The Binoban part of `sdkcore demo`: a real instance uploads through URLSession to an ingest on 127.0.0.1.
enum BinobanDemo {
    /// The calls the demo makes; every one must arrive at the ingest as one event.
    static let expectedEvents = 5

    /// The transport the demo uses: the platform's default (libcurl on Linux, URLSession elsewhere).
    static var transportName: String {
        #if os(Linux)
        "libcurl"
        #else
        "URLSession"
        #endif
    }

    /// Tracks, identifies and flushes against a loopback ingest and prints what it received.
    static func run() async -> DemoResult {
        let title = "Binoban events reach the ingest"
        print(
            "Binoban demo: a local ingest on 127.0.0.1, \(transportName) transport, file storage in a temporary "
                + "directory")
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port: UInt16
        do {
            port = try server.start()
        } catch {
            print("    could not start the local ingest: \(error)\n")
            return DemoResult(title: title, matched: false)
        }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sdkcore-demo-\(UInt64.random(in: 0...UInt64.max))")
        defer { try? FileManager.default.removeItem(at: directory) }

        let errors = LockedValue<[String]>([])
        let binoban = BinobanFactory.shared.create(apiKey: "DEMO_KEY", sourceIdentifier: "sdkcore-demo") { config in
            config.apiHost = "http://127.0.0.1:\(port)"
            config.transport = BinobanSend.platformTransport()
            config.storageDirectory = directory
            config.flushInterval = 3600
            config.errorHandler = { error in errors.withLock { $0.append("\(error)") } }
        }
        binoban.track(name: "app_opened", properties: ["source": "demo"])
        binoban.identify(userId: "user_123", traits: ["email": "ada@example.com", "plan": "pro"])
        binoban.server.screen(title: "Checkout")
        binoban.track(name: "purchase", properties: ["item": "shoes", "price": 49.99, "currency": "EUR"])
        binoban.server.track(name: "order_shipped", as: BinobanEventIdentity(userId: "customer-42"))
        let flush = await binoban.flushAndWait()
        await binoban.shutdown(gracePeriod: .seconds(2))

        let events = server.requests.flatMap { request -> [JSONValue] in
            (try? JSONDecoder().decode(JSONValue.self, from: request.body))?["batch"]?.arrayValue ?? []
        }
        print(
            "    ingest received \(server.requestCount) batch(es), \(events.count) event(s): "
                + events.map(Self.label).joined(separator: ", "))
        if let purchase = events.first(where: { $0["event"]?.stringValue == "purchase" }) {
            print("    one event as received:")
            for line in PrettyJSON.text(of: purchase).split(separator: "\n") { print("      \(line)") }
        }
        for error in errors.withLock({ $0 }) { print("    reported: \(error)") }
        let matched = flush.outcome == .completed && events.count == expectedEvents
        print("    \(matched ? "matched" : "MISMATCH: expected \(expectedEvents) events, flush \(flush.outcome)")\n")
        return DemoResult(title: title, matched: matched)
    }

    /// `track purchase`, `identify user_123`: a short label for one received event.
    static func label(_ event: JSONValue) -> String {
        let type = event["type"]?.stringValue ?? "?"
        if type == "identify" { return "identify \(event["userId"]?.stringValue ?? "")" }
        return "\(type) \(event["event"]?.stringValue ?? event["name"]?.stringValue ?? "")"
    }
}
