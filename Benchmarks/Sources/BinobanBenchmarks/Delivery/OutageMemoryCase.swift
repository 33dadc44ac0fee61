import BenchmarkSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Resident memory above the process's baseline (taken before any case ran) with `events`
/// events queued during an outage, at the default configuration: the ingest is a 127.0.0.1 port nobody listens
/// on, so every upload fails and the events wait in storage.
///
/// Events go in through `await trackAwaitingRoom(…)`, so they are queued rather than dropped at the write stage;
/// once the write stage has drained (every tracked event stored or dropped before storage, or 2 minutes), the
/// resident set is read. The value is that reading; each sample also prints the highest reading taken every
/// 10 000 events, the statistics at the reading and after shutdown, and what the error handler was told.
struct OutageMemoryCase: BenchmarkCase {
    var events: Int
    var baselineBytes: Int
    /// The anonymous part of the baseline (``BacklogMemoryCase/anonymousBytes()``).
    var anonymousBaselineBytes: Int
    var name: String { "resident MiB above baseline, \(events) events queued during an outage (defaults)" }
    var unit: String { "MiB" }
    var higherIsBetter: Bool { false }
    var target: Double? { 20 }

    func sample() async -> Double {
        let instance = DefaultInstance(port: deadPort())
        let binoban = instance.binoban
        let clock = ContinuousClock()
        var highest = BacklogMemoryCase.residentBytes()
        var highestAnonymous = BacklogMemoryCase.anonymousBytes()
        for index in 0..<events {
            await binoban.trackAwaitingRoom(
                name: CountingIngest.benchEventName, properties: DefaultInstance.properties(index))
            if index % 10_000 == 9_999 {
                highest = max(highest, BacklogMemoryCase.residentBytes())
                highestAnonymous = max(highestAnonymous, BacklogMemoryCase.anonymousBytes())
            }
        }
        let deadline = clock.now.advanced(by: .seconds(120))
        while clock.now < deadline {
            let statistics = binoban.statistics
            // Evicted events were stored first, so only the drops before storage are added.
            let beforeStorage = statistics.dropped.total - statistics.dropped.storageEviction
            if statistics.storedEvents + beforeStorage >= events { break }
            try? await Task.sleep(for: .milliseconds(10))
        }
        if events == 0 { try? await Task.sleep(for: .seconds(1)) }
        let after = BacklogMemoryCase.residentBytes()
        let anonymous = BacklogMemoryCase.anonymousBytes()
        highest = max(highest, after)
        highestAnonymous = max(highestAnonymous, anonymous)
        // What of it is memory freed but kept by the allocator: the reading after glibc returns what it can.
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
        let trimmed = BacklogMemoryCase.residentBytes()
        let statistics = binoban.statistics
        await instance.finish()
        let final = binoban.statistics
        let mib = { (bytes: Int) in Double(max(0, bytes - baselineBytes)) / 1_048_576 }
        let anonymousMiB = { (bytes: Int) in Double(max(0, bytes - anonymousBaselineBytes)) / 1_048_576 }
        let resident =
            "\(format(mib(after))) MiB at the end, highest \(format(mib(highest))) MiB, "
            + "\(format(mib(trimmed))) MiB after malloc_trim(0)"
        let heap =
            "anonymous (heap and stacks, no library pages) \(format(anonymousMiB(anonymous))) MiB at the end, "
            + "highest \(format(anonymousMiB(highestAnonymous))) MiB"
        let counts =
            "statistics: \(statistics.digest); after shutdown: \(final.digest); reported: \(instance.reports.summary)"
        print("  sample: \(resident); \(heap); \(counts); load \(loadAverage())")
        return mib(after)
    }
}

#if canImport(Glibc)
/// glibc's `malloc_trim`, which the Glibc module does not export.
@_silgen_name("malloc_trim")
private func malloc_trim(_ pad: Int) -> Int32
#endif
