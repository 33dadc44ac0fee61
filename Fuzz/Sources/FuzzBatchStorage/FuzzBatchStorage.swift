import BinobanCore
import Foundation
import FuzzSupport

#if canImport(Glibc)
import Glibc
#endif

// Stored batch files and directory names at storage open: the input plants entries in an empty directory
// (files with fuzzed contents under batch names of this or another namespace, with any sequence, or
// directories, symbolic links and FIFOs under such names), then opens a file storage with fuzzed limits and
// uses it: append, read every finished batch, remove some, close. Nothing may trap or block.
//
// Input layout, repeated: kind (1 byte), name selector (1 byte), sequence (8 bytes), length (2 bytes), bytes.

private let directory: URL = {
    var template = Array("\(NSTemporaryDirectory())/sdk-core-fuzz-storage-XXXXXX".utf8CString)
    let path = template.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) } ?? NSTemporaryDirectory()
    }
    return URL(fileURLWithPath: path, isDirectory: true)
}()

private let magic = Array("BNBEVT1\n".utf8)

private func plant(_ input: inout FuzzInput) {
    let kind = input.choice(6)
    let states = ["open", "batch", "tmp", ""]
    let state = states[input.choice(states.count)]
    let namespace = input.bool() ? "fz" : "other"
    let sequence = input.uint64()
    let digits = String(sequence)
    let padded = String(repeating: "0", count: max(0, 20 - digits.count)) + digits
    let name = state.isEmpty ? "\(namespace)-\(padded)" : "\(namespace)-\(padded).\(state)"
    let contents = input.chunk(limit: 4096)
    let path = directory.appendingPathComponent(name).path
    switch kind {
    case 0: _ = FileManager.default.createFile(atPath: path, contents: Data(contents))
    case 1: _ = FileManager.default.createFile(atPath: path, contents: Data(magic + contents))
    case 2: try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    case 3: try? FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
    case 4: _ = mkfifo(path, 0o600)
    default: _ = FileManager.default.createFile(atPath: path, contents: Data(magic + records(contents)))
    }
}

/// Well-framed records holding `bytes` split into JSON-looking events, so that recovery keeps some.
private func records(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    for piece in bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
        let event = [UInt8(ascii: "{")] + piece + [UInt8(ascii: "}")]
        let length = UInt32(event.count)
        let crc = crc32(event)
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        out += event
    }
    return out
}

private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
    }
    return ~crc
}

private func clear() {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
    }
}

/// Runs one input (what it covers is at the top of this file); always returns 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBatchStorage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    clear()
    let limitValues = [0, 1, 64, 300, 32_000, 500_000, .max, .min, -1]
    let limits = BinobanStorageLimits(
        maxEventBytes: input.bool() ? 32_000 : limitValues[input.choice(limitValues.count)],
        maxBatchBytes: input.bool() ? 500_000 : limitValues[input.choice(limitValues.count)],
        envelopeOverheadBytes: input.bool() ? 256 : limitValues[input.choice(limitValues.count)],
        maxFinishedBatches: input.bool() ? 20 : limitValues[input.choice(limitValues.count)],
        maxTotalBytes: input.bool() ? 5_000_000 : limitValues[input.choice(limitValues.count)])
    let eventCount = input.choice(40)
    let durability: BinobanFileDurability = input.bool() ? .survivesProcessCrash : .survivesPowerLoss
    for _ in 0..<16 where !input.isAtEnd { plant(&input) }
    let events = (0..<eventCount).map { Data(#"{"i":\#($0),"p":"\#(String(repeating: "x", count: $0 * 37))"}"#.utf8) }
    runBlocking {
        guard
            let storage = try? BinobanFileEventStorage(
                directory: directory, limits: limits, namespace: "fz", durability: durability)
        else { return }
        _ = try? await storage.append(events, whenFull: .refuse)
        _ = try? await storage.append(events)
        try? await storage.closeOpenBatch()
        for (index, batch) in ((try? await storage.finishedBatches(limit: 100)) ?? []).enumerated() {
            _ = try? await storage.read(batch)
            if index % 2 == 0 { try? await storage.remove(batch) }
        }
        _ = try? await storage.append(events)
    }
    return 0
}
