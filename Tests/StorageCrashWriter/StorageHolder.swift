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

// The `hold` mode: a second process that owns a namespace while a test tries to open it.
//
// Opens a BinobanFileEventStorage on <directory> and <namespace>, appends <events> events (`{"i":<n>}`) so that an
// open batch exists, writes `holding <count>` and keeps the storage (and its lock) until a line `stop` or the end
// of standard input, then writes `stopped` and exits without closing the open batch. If opening fails it writes
// `refused <code> <message>` and exits with status 2.

/// Runs the `hold` mode; never returns.
func holdStorage(directory: String, namespace: String, events: Int) async -> Never {
    let storage: BinobanFileEventStorage
    do {
        storage = try BinobanFileEventStorage(
            directory: URL(fileURLWithPath: directory, isDirectory: true), namespace: namespace)
    } catch {
        report("refused \(error.code) \(error.message)")
        exit(2)
    }
    do {
        let written = try await storage.append((0..<events).map { Data(#"{"i":\#($0)}"#.utf8) })
        report("holding \(written.storedEvents)")
    } catch {
        report("error \(error)")
        exit(1)
    }
    waitForStop()
    report("stopped")
    exit(0)
}

/// Blocks until standard input gives a line `stop` or ends.
func waitForStop() {
    while let line = readLine() {
        if line == "stop" { return }
    }
}
