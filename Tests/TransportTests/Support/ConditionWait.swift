#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits until `condition` holds, checking every few milliseconds, for a state the server reaches on its own
/// threads with nothing a test can await (a connection slot freed after its thread ends). `false` when it did
/// not hold within `limitSeconds`: a safety net against a broken server, never a measure of speed.
func waitUntil(limitSeconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let attempts = Int(limitSeconds * 1000 / 2)
    for _ in 0..<attempts {
        if condition() { return true }
        usleep(2000)
    }
    return condition()
}
