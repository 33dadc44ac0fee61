/// The wall-clock deadlines of the requests in flight and the one time the shared timer is set to fire: a value
/// with no clock and no I/O (``ExchangeDeadlines`` holds it under a lock and sets the timer it asks for).
///
/// Rules:
/// - One timer serves every request: it is set again only when a new deadline comes before the time it is set
///   for, or when it fires. Requests sent one after another with the same timeout have later and later
///   deadlines, so sending one sets nothing.
/// - A request that ends early is forgotten at once; the timer is left as it is, and when it fires with nothing
///   due it is set for the next deadline, if any.
/// - When the timer fires, every deadline at or before that moment is due, in the order they were added.
package struct DeadlineSchedule<Key: Hashable> {
    /// The deadlines not yet due, in the order they were added, as uptime nanoseconds.
    private(set) var pending: [(key: Key, deadline: UInt64)] = []
    /// When the timer is set to fire; `nil` when it is not set.
    package private(set) var armedFor: UInt64?

    /// An empty schedule with no timer set.
    package init() {}

    /// How many deadlines are pending.
    package var count: Int { pending.count }

    /// Adds `key`'s deadline. Returns the time to set the timer for, or `nil` when the timer already fires at or
    /// before `deadline`.
    package mutating func add(_ key: Key, deadline: UInt64) -> UInt64? {
        pending.append((key, deadline))
        if let armedFor, armedFor <= deadline { return nil }
        armedFor = deadline
        return deadline
    }

    /// Forgets `key`'s deadline (its request ended); the timer is not touched.
    package mutating func remove(_ key: Key) {
        if let index = pending.firstIndex(where: { $0.key == key }) { pending.remove(at: index) }
    }

    /// The timer fired at `now`: the keys whose deadline has come, and the time to set the timer for next
    /// (`nil`: nothing is pending, the timer stays unset).
    package mutating func fire(at now: UInt64) -> (due: [Key], next: UInt64?) {
        var due: [Key] = []
        pending.removeAll { entry in
            guard entry.deadline <= now else { return false }
            due.append(entry.key)
            return true
        }
        armedFor = pending.lazy.map(\.deadline).min()
        return (due, armedFor)
    }
}
