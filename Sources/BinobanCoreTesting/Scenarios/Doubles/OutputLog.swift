/// The ordered outputs of a scenario run, each stamped with the virtual millisecond it happened at.
final class OutputLog: Sendable {
    private let clock: ManualClock
    private let storage = LockedValue<[JSONValue]>([])

    init(clock: ManualClock) {
        self.clock = clock
    }

    /// Appends `entry` with `at` set to the current virtual time.
    func append(_ entry: [String: JSONValue]) {
        var entry = entry
        let offset = clock.now.offset.components
        entry["at"] = .int(Int(offset.seconds * 1000 + offset.attoseconds / 1_000_000_000_000_000))
        storage.withLock { $0.append(.object(entry)) }
    }

    /// Every output so far.
    var entries: [JSONValue] { storage.withLock { $0 } }
}
