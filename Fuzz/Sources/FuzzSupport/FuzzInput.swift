import Dispatch
import Foundation

/// Reads typed values from a fuzzer's bytes, front to back; past the end every read returns zero, so a target
/// never needs to check the length.
public struct FuzzInput {
    /// The input.
    public let bytes: [UInt8]
    /// The next byte to read.
    public private(set) var index = 0

    /// Copies libFuzzer's input.
    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    /// Reads `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte was read.
    public var isAtEnd: Bool { index >= bytes.count }
    /// The bytes not read yet.
    public var remaining: Int { max(0, bytes.count - index) }

    /// One byte.
    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// The low bit of one byte.
    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// A value in `0..<bound` (0 when `bound` is below 1).
    public mutating func choice(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return Int(byte()) % bound
    }

    /// Two bytes, little-endian.
    public mutating func uint16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    /// Eight bytes, little-endian.
    public mutating func uint64() -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return value
    }

    /// Any bit pattern, NaN and infinities included.
    public mutating func double() -> Double { Double(bitPattern: uint64()) }

    /// The next `count` bytes (fewer at the end).
    public mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, index + max(0, count))
        defer { index = end }
        return index < end ? Array(bytes[index..<end]) : []
    }

    /// A length-prefixed byte string of at most `limit` bytes.
    public mutating func chunk(limit: Int = 255) -> [UInt8] { take(min(limit, Int(uint16()))) }

    /// A length-prefixed string (the bytes decoded as UTF-8, repaired).
    public mutating func string(limit: Int = 255) -> String { String(decoding: chunk(limit: limit), as: UTF8.self) }

    /// Everything not read yet.
    public mutating func rest() -> [UInt8] { take(remaining) }
}

/// Runs `body` on the concurrency pool and waits for it: libFuzzer calls targets synchronously. Blocking here
/// is the harness's business; the SDK calls under test never block.
public func runBlocking(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    done.wait()
}

/// Stops the fuzzer with a crash when an invariant of the code under test does not hold.
public func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant broken: \(message())") }
}
