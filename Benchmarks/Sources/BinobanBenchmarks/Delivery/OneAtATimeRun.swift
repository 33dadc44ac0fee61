import BenchmarkSupport
import BinobanCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `BENCH_MODE=one-at-a-time`: a server's shape of load. `server.track` is called one event at a time, with
/// exponentially distributed gaps (a Poisson arrival process) at `BENCH_RATE` events a second (default 200) for
/// `BENCH_SECONDS` seconds (default 10), into an instance at the default configuration (file storage in a fresh
/// directory) whose transport answers 200 at once, in-process. It prints the process's CPU time (user + system,
/// every thread) and its context switches (voluntary + involuntary, from `getrusage`) over the tracking window.
///
/// `BENCH_NO_TRACK=1` runs the same calling loop (the same gaps, the same sleeps, the same identity and
/// properties built) with no instance and no `track()`: its figures are the loop's own cost, to subtract.
/// `Benchmarks/Scripts/one-at-a-time.sh` runs both and prints the difference per event.
///
/// `BENCH_TIME_TO_DISK=1` prints the time from each `track()` returning to its event's bytes being written
/// (median, p99, max). The write instants come from `Scripts/write-instants/write-instants.so`, loaded with
/// `LD_PRELOAD`: it wraps `write(2)` and notes when each event (found by its `index` property) was written, for any
/// build of the SDK; the run reads them back through `dlsym`. Every run also prints the calling thread's CPU time
/// per call around the `track()` call (`CLOCK_THREAD_CPUTIME_ID` read before and after each call; the loop-only
/// mode reads it around nothing, so the difference is the call's own cost).
///
/// Each line also gives the in-run CPU per event: the CPU of every thread but the caller's, plus the caller's CPU
/// inside the calls, over the window. It leaves the calling loop out within the run instead of subtracting a
/// loop-only run, whose wake-up costs vary from run to run as much as the figure itself.
///
/// `BENCH_FLUSH_AT=N` sets `flushAt` (default 20) to see what a batch's upload and file turnover cost per event.
///
/// `BENCH_FLOOR=1` (Linux) hands each event to ``FloorLoop`` instead of an instance: the floor of this shape of
/// hand-off (a timer armed by the group's first event, one wake-up and one `write` per group) on this machine.
enum OneAtATimeRun {
    static func run() async {
        let rate = Double(environmentInt("BENCH_RATE", 200))
        let duration = Double(environmentInt("BENCH_SECONDS", 10))
        let directory = TemporaryDirectory()
        let floor = environment("BENCH_FLOOR") != nil ? FloorLoop(directory: directory.url.path) : nil
        let tracks = environment("BENCH_NO_TRACK") == nil && floor == nil
        var binoban: Binoban?
        if tracks {
            var configuration = Configuration(apiKey: "BENCH_KEY", sourceIdentifier: "bench-source")
            configuration.apiHost = "127.0.0.1"
            configuration.transport = AtOnceTransport()
            configuration.storageDirectory = directory.url
            // Not the default: only to see what each batch costs (the default is what the benchmark measures).
            if let flushAt = environment("BENCH_FLUSH_AT").flatMap({ Int($0) }) { configuration.flushAt = flushAt }
            binoban = Binoban.create(configuration: configuration)
            // The storage opens and the first (empty) upload pass runs before the window.
            _ = await binoban?.flushAndWait()
        }
        let writeInstant = environment("BENCH_TIME_TO_DISK") != nil ? WriteInstants.lookUp() : nil
        var returned: [UInt64] = []
        returned.reserveCapacity(Int(rate * duration * 1.2))
        var callCPU: UInt64 = 0
        var random = GapSource(seed: 0x5EED_0001)
        let users = (0..<100).map { BinobanEventIdentity(userId: "user-\($0)") }
        let start = monotonicSeconds()
        let end = start + duration
        var due = start
        var events = 0
        let before = Usage.now()
        let callerBefore = threadCPUNanoseconds()
        while true {
            due += random.exponential(mean: 1 / rate)
            if due >= end { break }
            sleep(untilMonotonic: due)
            let properties: JSONValue = ["item": "shoes", "price": 49.99, "index": .int(events)]
            let user = users[events % users.count]
            let callStart = threadCPUNanoseconds()
            if let binoban {
                binoban.server.track(name: "purchase", properties: properties, as: user)
            } else if let floor {
                floor.track(index: events)
                blackHole((properties, user))
            } else {
                blackHole((properties, user))
            }
            callCPU += threadCPUNanoseconds() &- callStart
            if writeInstant != nil { returned.append(WriteInstants.monotonicNanoseconds()) }
            events += 1
        }
        // The window ends with the last gap: what the instance does after the last event (a write, an upload) is
        // inside it, as it would be in a process that goes on.
        sleep(untilMonotonic: end)
        let after = Usage.now()
        // The calling loop never suspends, so it ran on this one thread from `callerBefore` on.
        let callerCPU = Double(threadCPUNanoseconds() &- callerBefore) / 1e9
        if environment("BENCH_VERBOSE") != nil { printThreadSwitches() }
        let statistics = binoban?.statistics
        var timeToDisk: String?
        if let writeInstant {
            // The last events may still be gathering: give them a second.
            let giveUp = monotonicSeconds() + 1
            while (binoban?.statistics.storedEvents ?? 0) < events, monotonicSeconds() < giveUp {
                sleep(untilMonotonic: monotonicSeconds() + 0.01)
            }
            timeToDisk = Self.timeToDisk(returned: returned, written: writeInstant)
        } else if environment("BENCH_TIME_TO_DISK") != nil {
            timeToDisk = "time to disk: run with LD_PRELOAD=Benchmarks/Scripts/write-instants/write-instants.so"
        }
        if let binoban { _ = await binoban.shutdown(gracePeriod: .seconds(5)) }
        floor?.stop()
        directory.remove()
        let cpu = after.cpu - before.cpu
        let switches = (after.voluntary - before.voluntary) + (after.involuntary - before.involuntary)
        let mode = floor != nil ? "floor" : tracks ? "track" : "loop-only"
        var line = "one-at-a-time rate \(Int(rate))/s \(mode): \(events) events,"
        line += " cpu \(format(cpu * 1e6)) µs, switches \(switches)"
        let (voluntary, involuntary) = (after.voluntary - before.voluntary, after.involuntary - before.involuntary)
        line += " (voluntary \(voluntary), involuntary \(involuntary))"
        line += ", per event cpu \(format(cpu * 1e6 / Double(max(1, events)))) µs"
        line += ", switches \(format(Double(switches) / Double(max(1, events))))"
        line += ", track() thread CPU per call \(format(Double(callCPU) / 1e3 / Double(max(1, events)))) µs"
        // Within this run: every thread but the caller's, plus the caller's calls. The calling loop's own cost (its
        // sleeps' wake-ups, which vary most between runs) is left out instead of subtracted from another run.
        let besideCaller = (cpu - callerCPU) * 1e6 + Double(callCPU) / 1e3
        line += ", in-run CPU per event \(format(besideCaller / Double(max(1, events)))) µs"
        if let statistics { line += "; stored \(statistics.storedEvents), uploaded \(statistics.uploadedEvents)" }
        if let timeToDisk { line += "; " + timeToDisk }
        print(line + "  (load \(loadAverage()))")
    }

    /// The time from each `track()` returning to the write that held its event: median, p99 and max, and how
    /// many events were seen written.
    static func timeToDisk(returned: [UInt64], written: WriteInstants.Lookup) -> String {
        var latencies: [Double] = []
        for (index, instant) in returned.enumerated() {
            let write = written(Int64(index))
            guard write != 0 else { continue }
            latencies.append(Double(Int64(bitPattern: write &- instant)) / 1e6)
        }
        latencies.sort()
        func percentile(_ fraction: Double) -> String {
            latencies.isEmpty
                ? "-" : format(latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))])
        }
        return "time to disk ms p50 \(percentile(0.5)) p99 \(percentile(0.99)) max \(percentile(1))"
            + " (events seen written \(latencies.count) of \(returned.count))"
    }

    /// The calling thread's CPU time, in nanoseconds.
    static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Each thread's name, context switches and CPU time so far (Linux), to see which threads wake and work.
    static func printThreadSwitches() {
        #if os(Linux)
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return }
        for task in tasks.sorted() {
            let base = "/proc/self/task/\(task)/"
            let name = (try? String(contentsOfFile: base + "comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
            let status = (try? String(contentsOfFile: base + "status", encoding: .utf8)) ?? ""
            let switches = status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
                .map { $0.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
            // schedstat's first field is the thread's time on a CPU, in nanoseconds (since the thread started).
            let schedstat = (try? String(contentsOfFile: base + "schedstat", encoding: .utf8)) ?? ""
            let onCPU = schedstat.split(separator: " ").first.flatMap { Double($0) }.map { $0 / 1e6 }
            print(
                "  thread \(task) \(name ?? "?"): switches voluntary/involuntary \(switches.joined(separator: "/")),"
                    + " CPU \(onCPU.map { format($0) } ?? "?") ms"
            )
        }
        #endif
    }

    /// Process CPU time and context switches, from `getrusage`.
    struct Usage {
        var cpu: Double
        var voluntary: Int
        var involuntary: Int

        static func now() -> Usage {
            var usage = rusage()
            #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
            #else
            getrusage(RUSAGE_SELF, &usage)
            #endif
            func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
            return Usage(
                cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime), voluntary: Int(usage.ru_nvcsw),
                involuntary: Int(usage.ru_nivcsw))
        }
    }

    /// Seconds on the monotonic clock.
    static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Blocks the calling thread until the monotonic clock reads `seconds` (the producer is a plain loop, as a
    /// server's request handler would be; `Task.sleep` would add the runtime's own timer work to both modes).
    static func sleep(untilMonotonic seconds: Double) {
        var time = timespec()
        time.tv_sec = Int(seconds.rounded(.down))
        time.tv_nsec = Int((seconds - seconds.rounded(.down)) * 1e9)
        #if os(Linux)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
        #else
        let remaining = seconds - monotonicSeconds()
        if remaining > 0 { usleep(useconds_t(remaining * 1e6)) }
        #endif
    }
}

/// Exponentially distributed gaps from a seeded SplitMix64, so both modes and both builds see the same arrivals.
struct GapSource {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A gap with the given mean, in seconds.
    mutating func exponential(mean: Double) -> Double {
        let unit = (Double(next() >> 11) + 0.5) / Double(1 << 53)
        return -mean * log(unit)
    }
}

/// A transport that answers every request 200 at once and keeps nothing.
struct AtOnceTransport: BinobanEventTransport {
    func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        BinobanTransportResponse(statusCode: 200)
    }
}

/// The write instants noted by `Scripts/write-instants/write-instants.so` (an `LD_PRELOAD` library), if loaded.
enum WriteInstants {
    /// The instant event `index` was written (monotonic nanoseconds), or 0.
    typealias Lookup = @convention(c) (Int64) -> UInt64

    static func lookUp() -> Lookup? {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "bench_write_instant") else { return nil }
        return unsafeBitCast(symbol, to: Lookup.self)
        #else
        return nil
        #endif
    }

    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
