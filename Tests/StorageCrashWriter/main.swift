// A helper process for the storage crash test: appends events to a BinobanFileEventStorage until it is killed.
//
// Usage: BinobanStorageCrashWriter <directory> <namespace> [process-crash|power-loss]
//
// Appends events `{"i":<n>,"p":"<padding>"}` (n = 0, 1, 2, …) in calls of 16 to a storage with 4 000-byte
// batches (so batches are finished, synced when the durability is power-loss, and renamed all the time), and after each call that returned writes
// `stored <count>` on its own line to standard output: every event below <count> has been handed to the disk.
// The test kills it with SIGKILL at a random moment of that loop and checks what the next open recovers.

import BinobanCore

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

/// Writes `text` to standard output without buffering, so the reader sees it at once.
func report(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.append(UInt8(ascii: "\n"))
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        if written <= 0 {
            exit(3)
        }
        offset += written
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4 else {
    report("usage: BinobanStorageCrashWriter <directory> <namespace> [process-crash|power-loss]")
    exit(64)
}
let durability: BinobanFileDurability =
    arguments.count == 4 && arguments[3] == "power-loss" ? .survivesPowerLoss : .survivesProcessCrash
let limits = BinobanStorageLimits(
    maxEventBytes: 1_000, maxBatchBytes: 4_000, envelopeOverheadBytes: 100, maxFinishedBatches: 1_000_000,
    maxTotalBytes: Int.max)
do {
    let storage = try BinobanFileEventStorage(
        directory: URL(fileURLWithPath: arguments[1], isDirectory: true), limits: limits, namespace: arguments[2],
        durability: durability)
    var next = 0
    while true {
        let events = (next..<(next + 16)).map { index in
            Data(#"{"i":\#(index),"p":"\#(String(repeating: "x", count: index % 97))"}"#.utf8)
        }
        _ = try await storage.append(events)
        next += events.count
        report("stored \(next)")
    }
} catch {
    report("error \(error)")
    exit(1)
}
