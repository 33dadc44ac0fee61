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
/// The SDK loads once when an instance is created (a small read) and saves whole snapshots from its own
/// task, never from the caller's thread. Implementations replace the stored snapshot atomically.
public protocol BinobanKeyValueStore: Sendable {
    /// Reads the stored snapshot; an empty snapshot when nothing was stored yet.
    func load() throws -> BinobanKeyValueSnapshot

    /// Replaces the stored snapshot.
    func save(_ snapshot: BinobanKeyValueSnapshot) throws
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
    public func save(_ snapshot: BinobanKeyValueSnapshot) throws {
        stored.withLock { $0 = snapshot }
    }
}
