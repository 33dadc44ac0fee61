/// Keeps the latest records in memory, for tests and for hosts that show recent SDK lines in a debug screen.
///
/// ```swift
/// let logs = InMemoryLogHandler()
/// logs.log(SDKCoreLogRecord(level: .warning, message: "hello", source: "Example"))
/// assert(logs.records.map(\.message) == ["hello"])
/// ```
public final class InMemoryLogHandler: SDKCoreLogHandler {
    private let state: LockedValue<(records: [SDKCoreLogRecord], dropped: Int)>
    /// The most records kept; older ones are dropped and counted in ``droppedCount``.
    public let capacity: Int

    /// Creates an empty handler keeping at most `capacity` records (at least one).
    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
        state = LockedValue(([], 0))
    }

    /// Keeps `record`, dropping the oldest one when full.
    public func log(_ record: SDKCoreLogRecord) {
        state.withLock { state in
            if state.records.count >= capacity {
                state.records.removeFirst()
                state.dropped += 1
            }
            state.records.append(record)
        }
    }

    /// The records kept, oldest first.
    public var records: [SDKCoreLogRecord] { state.withLock { $0.records } }
    /// How many records were dropped to stay within ``capacity``.
    public var droppedCount: Int { state.withLock { $0.dropped } }
}
