import BinobanCore
import BinobanCoreTesting
import BinobanCoreURLSession
import Foundation
import LoopbackHTTP
import TestSupport
import Testing

@Suite("Gzip uploads to a 127.0.0.1 ingest")
struct GzipUploadTests {
    /// Tracks `count` events on an instance with the given compression, flushes, and returns what the server got.
    private static func deliver(count: Int, compressed: Bool) async throws -> [LoopbackHTTPRequest] {
        let server = LoopbackHTTPServer()
        let port = try server.start()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gzip-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "gzip-source")
        configuration.apiHost = "http://127.0.0.1:\(port)"
        configuration.transport = URLSessionEventTransport()
        configuration.storageDirectory = directory
        configuration.compressesUploads = compressed
        let binoban = Binoban.create(configuration: configuration)
        for index in 0..<count {
            binoban.track(name: "purchase", properties: ["item": "shoes", "price": 49.99, "index": .int(index)])
        }
        let result = await binoban.flushAndWait()
        #expect(result.outcome == .completed)
        #expect(result.uploadedEvents == count)
        _ = await binoban.shutdown(gracePeriod: .seconds(5))
        return server.requests
    }

    @Test("The ingest receives a gzip body with Content-Encoding: gzip that zlib decodes to the batch JSON")
    func gzipBodyOverTheWire() async throws {
        let requests = try await Self.deliver(count: 300, compressed: true)
        let request = try #require(requests.first)
        #expect(request.value(forHeader: "Content-Encoding") == "gzip")
        #expect(request.value(forHeader: "Content-Type") == "application/json")
        #expect(request.value(forHeader: "Content-Length") == "\(request.body.count)")

        let bodies = requests.map { [UInt8]($0.body) }
        let inflated = try PythonGunzip.decompress(bodies)
        let ownDecoding = try bodies.map { [UInt8](try GzipBody.decompress(Data($0))) }
        #expect(inflated == ownDecoding)
        let events = try inflated.flatMap { try UploadedBatch.decode(Data($0)).batch }
        let indexes: [JSONValue?] = events.map { $0.properties?["index"] }
        let expected: [JSONValue?] = (0..<300).map { .int($0) }
        #expect(indexes == expected)
        #expect(events.allSatisfy { $0.event == "purchase" && $0.type == "track" })
        let envelope = try JSONDecoder().decode([String: JSONValue].self, from: Data(inflated[0]))
        #expect(Set(envelope.keys) == ["batch", "sentAt", "writeKey"])
        #expect(envelope["writeKey"] == "gzip-source")
        // Small events compress to a small fraction of their JSON.
        let wireBytes = bodies.reduce(0) { $0 + $1.count }
        let jsonBytes = inflated.reduce(0) { $0 + $1.count }
        #expect(wireBytes * 4 < jsonBytes)
    }

    @Test("Without the switch the body is the plain JSON and no Content-Encoding is sent")
    func plainByDefault() async throws {
        #expect(Configuration(apiKey: "K", sourceIdentifier: "S").compressesUploads == false)
        let requests = try await Self.deliver(count: 5, compressed: false)
        let request = try #require(requests.first)
        #expect(request.value(forHeader: "Content-Encoding") == nil)
        #expect(try UploadedBatch.decode(request.body).batch.count == 5)
        #expect(!GzipBody.isCompressed(request.body))
    }
}
