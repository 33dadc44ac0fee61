/// Counts the awaited flushes a scenario started and that have not resolved yet.
final class PendingFlushes: Sendable {
    private let count = LockedValue(0)

    /// Flushes started and not resolved.
    var pending: Int { count.withLock { $0 } }

    func start() { count.withLock { $0 += 1 } }

    func finish() { count.withLock { $0 -= 1 } }
}
