#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU seconds (user + system, every thread) this process has used so far.
public func processCPUSeconds() -> Double {
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The environment variable `name`, or `nil`.
public func environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
}

/// A figure for the tables: whole numbers from 1 000 up, two decimals below; `inf` or `nan` as such (a run of
/// zero calls divides by zero, and `Int(_:)` of an infinity traps).
public func format(_ value: Double) -> String {
    guard value.isFinite else { return String(value) }
    if value >= 1000 { return String(Int(value.rounded())) }
    return String((value * 100).rounded() / 100)
}

/// Keeps a value alive so the optimiser cannot remove the work that produced it.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
