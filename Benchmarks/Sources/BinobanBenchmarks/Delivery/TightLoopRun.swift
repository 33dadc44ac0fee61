import BenchmarkSupport
import BinobanCore
import Foundation

/// `BENCH_MODE=tight-loop`: `BENCH_EVENTS` events (default 1 000 000) tracked as fast as `BENCH_PRODUCERS` threads
/// (default 1) can call `track()`, into an instance at the default configuration (file storage in a fresh directory,
/// a transport that answers 200 at once). Once the producers are done the run flushes until everything accepted
/// is uploaded (or nothing moves for 10 s) and prints what was lost (tracked − uploaded), what the instance
/// counted as dropped, the producers' thread CPU time per call and the process's CPU time.
///
/// `BENCH_NO_TRACK=1` runs the same producer threads with no instance: each builds the same properties and hands
/// them to nothing. Its CPU per call is the producers' own loop (building and freeing the literal), which the
/// tracking run's figure includes; `Benchmarks/Scripts/loop-figures.sh` prints the difference, `track()`'s own cost.
enum TightLoopRun {
    static func run() async {
        let producers = max(1, environmentInt("BENCH_PRODUCERS", 1))
        let total = environmentInt("BENCH_EVENTS", 1_000_000)
        let perProducer = total / producers
        if environment("BENCH_NO_TRACK") != nil {
            await runLoopOnly(producers: producers, perProducer: perProducer)
            return
        }
        let directory = TemporaryDirectory()
        var configuration = Configuration(apiKey: "BENCH_KEY", sourceIdentifier: "bench-source")
        configuration.apiHost = "127.0.0.1"
        configuration.transport = AtOnceTransport()
        configuration.storageDirectory = directory.url
        let binoban = Binoban.create(configuration: configuration)
        _ = await binoban.flushAndWait()
        let cpuBefore = processCPUSeconds()
        let started = OneAtATimeRun.monotonicSeconds()
        let producerCPU = await runProducers(producers, perProducer: perProducer) { index in
            binoban.track(name: "purchase", properties: ["item": "shoes", "price": 49.99, "index": .int(index)])
        }
        let tracked = OneAtATimeRun.monotonicSeconds() - started
        var uploaded = binoban.statistics.uploadedEvents
        var lastMove = OneAtATimeRun.monotonicSeconds()
        while true {
            _ = await binoban.flushAndWait()
            let statistics = binoban.statistics
            if statistics.uploadedEvents + statistics.dropped.total >= perProducer * producers { break }
            if statistics.uploadedEvents != uploaded {
                uploaded = statistics.uploadedEvents
                lastMove = OneAtATimeRun.monotonicSeconds()
            } else if OneAtATimeRun.monotonicSeconds() - lastMove > 10 {
                break
            }
        }
        let seconds = OneAtATimeRun.monotonicSeconds() - started
        let cpu = processCPUSeconds() - cpuBefore
        let statistics = binoban.statistics
        _ = await binoban.shutdown(gracePeriod: .seconds(5))
        directory.remove()
        let events = perProducer * producers
        var line = "tight-loop \(producers) producer(s) \(events) events: lost \(events - statistics.uploadedEvents)"
        line += " (dropped \(statistics.dropped.total): write stage \(statistics.dropped.writeStageOverflow),"
        line += " eviction \(statistics.dropped.storageEviction), full \(statistics.dropped.storageFull))"
        line += ", producers' CPU per call \(format(Double(producerCPU) / 1e3 / Double(events))) µs"
        line += ", tracking \(format(tracked)) s, all uploaded after \(format(seconds)) s, process CPU \(format(cpu)) s"
        print(line + "  (load \(loadAverage()))")
    }

    /// The producers' loop alone: the same threads and properties, no `track()`.
    static func runLoopOnly(producers: Int, perProducer: Int) async {
        let producerCPU = await runProducers(producers, perProducer: perProducer) { index in
            let properties: JSONValue = ["item": "shoes", "price": 49.99, "index": .int(index)]
            blackHole(("purchase", properties))
        }
        let events = perProducer * producers
        var line = "tight-loop \(producers) producer(s) \(events) events loop-only"
        line += ": producers' CPU per call \(format(Double(producerCPU) / 1e3 / Double(events))) µs"
        print(line + "  (load \(loadAverage()))")
    }

    /// Runs `call` for `perProducer` event indexes on each of `producers` threads (producer `p` takes indexes
    /// `p × perProducer` up) and returns the threads' CPU time in all, in nanoseconds.
    static func runProducers(
        _ producers: Int, perProducer: Int, call: @escaping @Sendable (Int) -> Void
    ) async -> UInt64 {
        let producerCPU = Locked<UInt64>(0)
        let finished = DispatchSemaphore(value: 0)
        for producer in 0..<producers {
            let thread = Thread {
                let cpuStart = OneAtATimeRun.threadCPUNanoseconds()
                for index in 0..<perProducer { call(producer * perProducer + index) }
                let spent = OneAtATimeRun.threadCPUNanoseconds() &- cpuStart
                producerCPU.withLock { $0 += spent }
                finished.signal()
            }
            thread.start()
        }
        // Joined off the async context (a semaphore wait must not block it).
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                for _ in 0..<producers { finished.wait() }
                continuation.resume()
            }.start()
        }
        return producerCPU.withLock { $0 }
    }
}
