// A helper process for the storage tests: appends events to a BinobanFileEventStorage, or saves identity
// snapshots with a FileKeyValueStore, until it is killed; or holds a storage, or runs a whole instance, beside
// the test's own process (StorageHolder.swift, InstanceRunner.swift).
//
// Usage: BinobanStorageCrashWriter <directory> <namespace> [process-crash|power-loss]
//        BinobanStorageCrashWriter identity <file>
//        BinobanStorageCrashWriter hold <directory> <namespace> <events>
//        BinobanStorageCrashWriter instance <directory> <source> <port> <count> <prefix>
//
// Appends events `{"i":<n>,"p":"<padding>"}` (n = 0, 1, 2, …) in calls of 16 to a storage with 4 000-byte
// batches (so batches are finished, synced when the durability is power-loss, and renamed all the time), and after each call that returned writes
// `stored <count>` on its own line to standard output: every event below <count> has been handed to the disk.
// The test kills it with SIGKILL at a random moment of that loop and checks what the next open recovers.
//
// In identity mode it saves snapshot n = 0, 1, 2, … to <file> (`identitySnapshot(n)`: keys `sequence`,
// `anonymousId` and a `padding` of a length that varies with n, up to 100 kB) and after each save that returned
// writes `stored <n + 1>`: the file holds snapshot n or a later one.

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

/// The identity snapshot number `sequence` (the crash test rebuilds it to check a file is complete).
func identitySnapshot(_ sequence: Int) -> BinobanKeyValueSnapshot {
    BinobanKeyValueSnapshot(values: [
        "sequence": "\(sequence)",
        "anonymousId": "anonymous-\(sequence)",
        "padding": String(repeating: "p", count: (sequence &* 7_919) % 100_000),
    ])
}

/// Saves identity snapshots to `file` in a loop until the process is killed.
func saveIdentityUntilKilled(_ file: URL) async -> Never {
    let store = FileKeyValueStore(fileURL: file)
    var sequence = 0
    while true {
        do {
            try await store.save(identitySnapshot(sequence))
        } catch {
            report("error \(error)")
            exit(1)
        }
        sequence += 1
        report("stored \(sequence)")
    }
}

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "identity" {
    await saveIdentityUntilKilled(URL(fileURLWithPath: arguments[2]))
}
if arguments.count == 5, arguments[1] == "hold", let events = Int(arguments[4]) {
    await holdStorage(directory: arguments[2], namespace: arguments[3], events: events)
}
if arguments.count == 7, arguments[1] == "instance", let port = Int(arguments[4]), let count = Int(arguments[5]) {
    await runInstance(directory: arguments[2], source: arguments[3], port: port, count: count, prefix: arguments[6])
}
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
