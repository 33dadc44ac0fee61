/// A snapshot of everything the key-value store holds, as strings.
public struct BinobanKeyValueSnapshot: Sendable, Hashable {
    /// The stored values by key.
    public var values: [String: String]

    /// Creates a snapshot.
    public init(values: [String: String] = [:]) {
        self.values = values
    }
}

/// The edge that persists identity (anonymousId, userId, traits, device id and token) and the version and build
/// of the last reported launch.
///
/// The SDK loads once, synchronously, when an instance is created (one small, bounded read: `anonymousId()` must
/// answer with the persisted id from the first call, and the seed's `create` is synchronous), and saves whole
/// snapshots from the pipeline, one at a time, awaiting each. Implementations replace the stored snapshot
/// atomically, and an implementation whose save blocks (file or database I/O) does that work on a thread of its
/// own, never on the task that awaits it: Swift's cooperative pool has as many threads as cores, shared by the
/// whole host. ``FileKeyValueStore`` saves on its own dispatch queue.
public protocol BinobanKeyValueStore: Sendable {
    /// Reads the stored snapshot; an empty snapshot when nothing was stored yet. Called once, when an instance is
    /// created, on the creating thread.
    func load() throws -> BinobanKeyValueSnapshot

    /// Replaces the stored snapshot. The pipeline awaits each save before it starts the next.
    func save(_ snapshot: BinobanKeyValueSnapshot) async throws
}

/// A key-value store that lives in memory only (identity is lost with the process).
public final class InMemoryKeyValueStore: BinobanKeyValueStore {
    private let stored: LockedValue<BinobanKeyValueSnapshot>

    /// Creates a store holding `snapshot`.
    public init(_ snapshot: BinobanKeyValueSnapshot = BinobanKeyValueSnapshot()) {
        stored = LockedValue(snapshot)
    }

    /// Returns the held snapshot.
    public func load() throws -> BinobanKeyValueSnapshot {
        stored.withLock { $0 }
    }

    /// Replaces the held snapshot.
    public func save(_ snapshot: BinobanKeyValueSnapshot) async throws {
        stored.withLock { $0 = snapshot }
    }
}
