/// Session ids `<prefix>-1`, `<prefix>-2`, … in call order, for deterministic URLs.
public final class SequentialFalconIDSource: FalconIDSource {
    private let counter = LockedValue(0)
    private let prefix: String

    /// Creates a source; ids start at `<prefix>-1`.
    public init(prefix: String = "session") {
        self.prefix = prefix
    }

    /// The next id.
    public func makeSessionID() -> String {
        let value = counter.withLock {
            $0 += 1
            return $0
        }
        return "\(prefix)-\(value)"
    }
}

/// The same session id for every execution.
public struct FixedFalconIDSource: FalconIDSource {
    /// The id returned.
    public var id: String

    /// Creates a source returning `id`.
    public init(_ id: String) {
        self.id = id
    }

    /// `id`.
    public func makeSessionID() -> String { id }
}
