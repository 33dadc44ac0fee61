import BenchmarkSupport
import BinobanCoreTesting
import BinobanCoreURLSession
import LoopbackHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Events per second from the first `track()` until every event is durably written to batch files
/// (`BinobanFileEventStorage` in a fresh temporary directory, at the given durability level), with bounds large
/// enough that nothing is dropped.
struct DurableWriteCase: BenchmarkCase {
    var events: Int
    var durability: BinobanFileDurability = .survivesProcessCrash
    var name: String {
        "events/s durably written to batch files (BinobanFileEventStorage, \(durability), zero drops)"
    }
    var unit: String { "events/s" }
    var higherIsBetter: Bool { true }
    var target: Double? { 250_000 }

    func sample() async -> Double {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let limits = BinobanStorageLimits.unbounded
        guard
            let files = try? BinobanFileEventStorage(
                directory: directory.url, limits: limits, namespace: "bench-source", durability: durability)
        else {
            print("  could not open a file storage in \(directory.url.path)")
            return 0
        }
        return await eventsPerSecondStored(events, into: files, limits: limits)
    }
}

/// Seconds from the first `track()` until a loopback ingest (`LoopbackHTTPServer` on 127.0.0.1) holds every one
/// of `events` events, through the default durable file storage and `URLSessionEventTransport`.
///
/// The instance batches by size (flushAt = 1000, batches close below 500 KB) and is flushed once after the last
/// `track()`; the ingest counts the events in each body as it arrives.
struct LoopbackDeliveryCase: BenchmarkCase {
    var events: Int
    var name: String { "seconds until a 127.0.0.1 ingest holds \(events) events (file storage + URLSession)" }
    var unit: String { "s" }
    var higherIsBetter: Bool { false }
    var target: Double? { 1 }

    func sample() async -> Double {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let received = Locked(0)
        let server = LoopbackHTTPServer(
            responder: .handler { request in
                received.withLock { $0 += EventCounter.events(in: request.body) }
                return .ok
            },
            configuration: .init(recordsBodies: false)
        )
        guard let port = try? server.start() else {
            print("  the loopback ingest could not start")
            return .infinity
        }
        defer { server.stop() }
        var configuration = Configuration(apiKey: "BENCH_KEY", sourceIdentifier: "bench-source")
        configuration.apiHost = "http://127.0.0.1:\(port)"
        configuration.storageDirectory = directory.url
        configuration.keyValueStore = InMemoryKeyValueStore()
        configuration.transport = URLSessionEventTransport()
        configuration.writeStageCapacity = events
        configuration.flushAt = 1000
        configuration.flushInterval = 3600
        let binoban = Binoban.create(configuration: configuration)
        let count = events
        let seconds = await measureSeconds {
            for index in 0..<count {
                binoban.track(name: "purchase", properties: Instances.properties(index))
            }
            var rounds = 0
            while received.withLock({ $0 }) < count, rounds < 50 {
                let result = await binoban.flushAndWait()
                rounds += 1
                if environment("BENCH_VERBOSE") != nil { print("  flush: \(result)") }
            }
        }
        _ = await binoban.shutdown(gracePeriod: .seconds(5))
        if received.withLock({ $0 }) != count { print("  ingest holds \(received.withLock { $0 }) of \(count)") }
        return seconds
    }
}

/// Counts the events of a batch body by counting its `"messageId":` keys (each event has exactly one).
enum EventCounter {
    private static let needle = Array(#""messageId":"#.utf8)

    static func events(in body: Data) -> Int {
        body.withUnsafeBytes { raw -> Int in
            let bytes = raw.bindMemory(to: UInt8.self)
            let first = needle[0]
            let last = bytes.count - needle.count
            var found = 0
            var index = 0
            while index <= last {
                if bytes[index] == first, needle.indices.allSatisfy({ bytes[index + $0] == needle[$0] }) {
                    found += 1
                    index += needle.count
                } else {
                    index += 1
                }
            }
            return found
        }
    }
}

/// A unique directory under the system's temporary directory, removed by ``remove()``.
struct TemporaryDirectory: Sendable {
    let url: URL

    init() {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        url = URL(fileURLWithPath: base, isDirectory: true)
            .appendingPathComponent("binoban-bench-\(UInt64.random(in: 0...UInt64.max))", isDirectory: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
