import BenchmarkSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The machine's load average as `/proc/loadavg` gives it (its first three fields), printed beside each figure
/// because the benchmark VM is shared.
func loadAverage() -> String {
    #if os(Linux)
    guard let file = fopen("/proc/loadavg", "r") else { return "?" }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 128)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return "?" }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.split(separator: " ").prefix(3).joined(separator: " ")
    #else
    return "?"
    #endif
}

/// CPU seconds the calling thread has used so far.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// An integer from the environment, or `fallback`.
func environmentInt(_ name: String, _ fallback: Int) -> Int {
    environment(name).flatMap { Int($0) } ?? fallback
}

/// Seconds between two instants of the continuous clock.
func seconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
    let parts = start.duration(to: end).components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
}

/// A port on 127.0.0.1 that nobody listens on: one a server bound and then released.
func deadPort() -> UInt16 {
    let ingest = CountingIngest()
    let server = ingest.makeServer()
    let port = (try? server.start()) ?? 9
    server.stop()
    return port
}

/// Prints a line and flushes it at once, so a run that is piped or stopped still shows every finished figure.
func print(_ line: String) {
    Swift.print(line)
    fflush(nil)
}
