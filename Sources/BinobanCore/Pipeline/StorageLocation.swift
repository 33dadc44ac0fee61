#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where an instance keeps its batches and identity, and the process-wide claim on that place.
enum StorageLocation {
    /// The user's data directory + `binoban`: `$XDG_DATA_HOME` or `~/.local/share` on Linux, Application
    /// Support on Apple platforms. `nil` when none can be determined.
    static func defaultDirectory() -> URL? {
        #if canImport(Darwin)
        return FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first?
            .appendingPathComponent("binoban", isDirectory: true)
        #else
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("binoban", isDirectory: true)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".local/share/binoban", isDirectory: true)
        }
        return nil
        #endif
    }

    /// The directories (and namespaces) open in this process, so two instances never share files.
    private static let claimed = LockedValue(Set<String>())

    /// Claims `directory` + `namespace` for one instance; `false` when another instance holds it.
    static func claim(directory: URL, namespace: String) -> Bool {
        let key = directory.standardizedFileURL.path + "\u{0}" + namespace
        return claimed.withLock { $0.insert(key).inserted }
    }

    /// Gives a claim back (at shutdown).
    static func release(directory: URL, namespace: String) {
        let key = directory.standardizedFileURL.path + "\u{0}" + namespace
        _ = claimed.withLock { $0.remove(key) }
    }
}
