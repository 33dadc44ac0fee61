#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes raw bytes to file descriptor 2.
func writeToStandardError(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> Int {
    write(2, pointer, count)
}
