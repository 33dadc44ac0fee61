import BinobanCore
import BinobanCoreURLSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The `instance` mode: a whole Binoban instance in a second process, sharing a storage directory and an ingest
// with the test's own instance.
//
// Creates an instance for <source> with storageDirectory <directory>, uploading to http://127.0.0.1:<port> through
// URLSessionEventTransport, and writes `report <kind> <message>` for every error report. Then it writes
// `created <storageFallbacks>`, waits for a line `go`, tracks <count> events named `<prefix>-<n>`, awaits a flush
// and writes `flushed <uploadedEvents> <storageFallbacks>`; it waits for `stop` (or the end of standard input),
// shuts the instance down and writes `done <uploadedEvents> <queuedEvents> <dropped>`.

/// Runs the `instance` mode; never returns.
func runInstance(directory: String, source: String, port: Int, count: Int, prefix: String) async -> Never {
    var configuration = Configuration(apiKey: "KEY", sourceIdentifier: source)
    configuration.apiHost = "http://127.0.0.1:\(port)"
    configuration.transport = URLSessionEventTransport()
    configuration.storageDirectory = URL(fileURLWithPath: directory, isDirectory: true)
    configuration.flushAt = 50
    configuration.flushInterval = 3_600
    configuration.errorHandler = { error in report("report \(error.kind) \(error.message)") }
    let binoban = Binoban.create(configuration: configuration)
    report("created \(binoban.statistics.storageFallbacks)")
    guard readLine() == "go" else { exit(1) }
    for index in 0..<count {
        binoban.track(name: "\(prefix)-\(index)")
    }
    _ = await binoban.flushAndWait()
    report("flushed \(binoban.statistics.uploadedEvents) \(binoban.statistics.storageFallbacks)")
    waitForStop()
    _ = await binoban.shutdown(gracePeriod: .seconds(10))
    let statistics = binoban.statistics
    report("done \(statistics.uploadedEvents) \(statistics.queuedEvents) \(statistics.dropped.total)")
    exit(0)
}
