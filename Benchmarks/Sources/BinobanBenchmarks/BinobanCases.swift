import BinobanCoreTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `track()` calls per second from `producers` concurrent tasks, three small properties each.
struct TrackCallsCase: BenchmarkCase {
    var producers: Int
    var callsPerProducer: Int
    var name: String { "track() calls/s, \(producers) producer\(producers == 1 ? "" : "s")" }
    var unit: String { "calls/s" }
    var higherIsBetter: Bool { true }
    var target: Double? { producers == 1 ? 1_000_000 : nil }

    func sample() async -> Double {
        let binoban = Instances.make(storage: InMemoryEventStorage())
        let producers = self.producers
        let calls = self.callsPerProducer
        let seconds = await measureSeconds {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<producers {
                    group.addTask {
                        for index in 0..<calls {
                            binoban.track(name: "purchase", properties: Instances.properties(index))
                        }
                    }
                }
            }
        }
        _ = await binoban.shutdown(gracePeriod: .seconds(2))
        return Double(producers * calls) / seconds
    }
}

/// Events per second from the first `track()` until all are encoded and appended to in-memory storage,
/// with a write stage large enough that nothing is dropped.
struct EncodeAndAppendCase: BenchmarkCase {
    var events: Int
    var name: String { "events/s encoded + appended (InMemoryEventStorage, zero drops)" }
    var unit: String { "events/s" }
    var higherIsBetter: Bool { true }
    var target: Double? { 250_000 }

    func sample() async -> Double {
        let limits = BinobanStorageLimits.unbounded
        return await eventsPerSecondStored(events, into: InMemoryEventStorage(limits: limits), limits: limits)
    }
}

extension BinobanStorageLimits {
    /// Bounds so large that no batch is ever evicted: for cases that must measure with zero drops.
    static let unbounded = BinobanStorageLimits(maxFinishedBatches: 1_000_000, maxTotalBytes: .max)
}

/// Waits until `storage` has stored `count` events; a benchmark that cannot get there stops the run.
func waitForStoredEvents(_ count: Int, in storage: ObservableEventStorage) async {
    do {
        // The test kit's timeout is a safety net; a loaded machine may need far longer than its default.
        try await storage.waitForStoredEvents(count: count, timeout: .seconds(600))
    } catch {
        fatalError("the benchmark's events were not stored: \(error)")
    }
}

/// Tracks `count` events into an instance over `storage` (a write stage large enough for all of them) and
/// returns events per second from the first `track()` until the storage holds every one.
func eventsPerSecondStored(
    _ count: Int,
    into storage: any BinobanEventStorage,
    limits: BinobanStorageLimits
) async -> Double {
    let observed = ObservableEventStorage(storage)
    let binoban = Instances.make(storage: observed, capacity: count, limits: limits)
    let seconds = await measureSeconds {
        for index in 0..<count {
            binoban.track(name: "purchase", properties: Instances.properties(index))
        }
        await waitForStoredEvents(count, in: observed)
    }
    _ = await binoban.shutdown(gracePeriod: .seconds(5))
    return Double(count) / seconds
}

/// Upload body bytes per event, envelope included, for events with three small properties; with `compressed`,
/// the gzip body's bytes (``Configuration/compressesUploads``).
struct BodyBytesCase: BenchmarkCase {
    var compressed = false
    var name: String { "body bytes per event (3 small properties, default context)" + (compressed ? ", gzip" : "") }
    var unit: String { "bytes/event" }
    var higherIsBetter: Bool { false }
    var target: Double? { nil }

    func sample() async -> Double {
        let transport = ScriptedTransport()
        let binoban = Instances.make(storage: InMemoryEventStorage(), transport: transport, compressed: compressed)
        for index in 0..<1000 {
            binoban.track(name: "purchase", properties: Instances.properties(index))
        }
        _ = await binoban.flushAndWait()
        _ = await binoban.shutdown(gracePeriod: .seconds(2))
        let bytes = transport.requests.reduce(0) { $0 + $1.body.count }
        let events = (try? transport.uploadedEvents().count) ?? 0
        return Double(bytes) / Double(max(1, events))
    }
}

/// Resident memory above the process's baseline (taken before any case ran) once `events` events are queued with
/// no transport. The default storage caps and the bounded write stage hold the backlog, so the figure should
/// not grow with `events`.
struct BacklogMemoryCase: BenchmarkCase {
    var events: Int
    var baselineBytes: Int
    var name: String { "resident memory above baseline, \(events) events queued, no transport" }
    var unit: String { "MiB" }
    var higherIsBetter: Bool { false }
    var target: Double? { nil }

    func sample() async -> Double {
        let storage = ObservableEventStorage(InMemoryEventStorage(writeKey: "bench-source"))
        let binoban = Instances.make(storage: storage)
        let before = baselineBytes
        for index in 0..<events {
            binoban.track(name: "purchase", properties: Instances.properties(index))
            if index % 1000 == 999 { await waitForStoredEvents(index / 2, in: storage) }
        }
        _ = await binoban.flushAndWait()
        let after = Self.residentBytes()
        _ = await binoban.shutdown(gracePeriod: .seconds(2))
        if getenv("BENCH_VERBOSE") != nil { print("  resident before \(before) B, after \(after) B") }
        return Double(max(0, after - before)) / 1_048_576
    }

    /// The resident set size from `/proc/self/statm` (Linux); 0 where it is not available.
    static func residentBytes() -> Int { statmPages().resident * pageSize }

    /// The anonymous part of the resident set (heap, stacks: resident minus file-backed pages such as the
    /// libraries the first `URLSession` loads), from `/proc/self/statm`; 0 where it is not available.
    static func anonymousBytes() -> Int {
        let pages = statmPages()
        return max(0, pages.resident - pages.shared) * pageSize
    }

    private static var pageSize: Int {
        #if os(Linux)
        return Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return 0
        #endif
    }

    private static func statmPages() -> (resident: Int, shared: Int) {
        #if os(Linux)
        guard let file = fopen("/proc/self/statm", "r") else { return (0, 0) }
        defer { fclose(file) }
        return statmFields(file)
        #else
        return (0, 0)
        #endif
    }
}

#if os(Linux)
/// Reads statm's second and third fields: resident pages and resident file-backed (shared) pages.
private func statmFields(_ file: UnsafeMutablePointer<FILE>) -> (resident: Int, shared: Int) {
    var buffer = [CChar](repeating: 0, count: 256)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return (0, 0) }
    let fields = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        .split(separator: " ")
    guard fields.count >= 3, let resident = Int(fields[1]), let shared = Int(fields[2]) else { return (0, 0) }
    return (resident, shared)
}
#endif
