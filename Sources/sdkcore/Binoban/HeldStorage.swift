import BinobanCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `--storage DIR` of `sdkcore binoban send`: the file storage the command opens, which takes the
/// namespace's lock for the whole run, and the identity file beside it.
///
/// Both go to the instance as its storage and key-value store, so the instance takes no lock of its own and never
/// falls back to memory because of the command's own lock (Docs/Decisions/0536). The events in the directory are
/// counted by reading the files, without the storage's help: at the start (what earlier runs left) and after the
/// shutdown (what this run keeps), which makes the summary's sums exact.
struct HeldStorage {
    /// The bounds of the storage: the server's (10 000 batches, 512 MiB), which hold a bulk import of millions
    /// of small events. Reaching them slows the reading (`.wait`), it never evicts.
    static let limits = BinobanStorageLimits.server

    let directory: URL
    let namespace: String
    let storage: BinobanFileEventStorage
    let identity: FileKeyValueStore

    /// Why the directory cannot be used.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Opens the storage in `directory` for `namespace` (taking its lock, repairing what a killed run left).
    init(directory: URL, namespace: String) throws(Failure) {
        do {
            storage = try BinobanFileEventStorage(directory: directory, limits: Self.limits, namespace: namespace)
        } catch {
            throw Failure(description: SendMessages.text(of: error))
        }
        self.directory = directory
        self.namespace = namespace
        identity = FileKeyValueStore(fileURL: directory.appendingPathComponent("\(namespace).identity.json"))
    }

    /// The events in the directory's batch files now (finished and open); `nil` when they cannot be read.
    func storedEvents() -> Int? {
        guard let reader = try? StoredBacklogReader(directory: directory, namespace: namespace),
            let batches = try? reader.batches()
        else { return nil }
        return batches.reduce(0) { $0 + $1.eventCount }
    }
}
