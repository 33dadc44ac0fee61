extension BinobanNotifications {
    /// The bounds and key names of one notification layer. The defaults suit every app; a bound below 1
    /// counts as 1 and a bound above ``maximumCapacity`` counts as ``maximumCapacity``. Memory grows with what
    /// is actually held, never with the bound.
    public struct Options: Sendable, Hashable {
        /// Interactions kept for ``NotificationInteractionManager/drainPendingInteractions()``; oldest dropped.
        public var replayCapacity: Int
        /// Notification uuids remembered to report `DELIVERED` once each; the oldest is forgotten first.
        public var deliveredMemory: Int
        /// Events kept while no Binoban instance is attached; oldest dropped and reported.
        public var pendingEventCapacity: Int
        /// The `userInfo` key names.
        public var keys: BinobanPushPayloadKeys

        /// The largest accepted bound: 65 536 entries.
        public static let maximumCapacity = 65_536

        /// Creates options: replay 16, delivered memory 256, 32 pending events, the standard keys. Bounds are
        /// clamped to 1 to ``maximumCapacity``.
        public init(
            replayCapacity: Int = 16,
            deliveredMemory: Int = 256,
            pendingEventCapacity: Int = 32,
            keys: BinobanPushPayloadKeys = .standard
        ) {
            self.replayCapacity = Self.clamped(replayCapacity)
            self.deliveredMemory = Self.clamped(deliveredMemory)
            self.pendingEventCapacity = Self.clamped(pendingEventCapacity)
            self.keys = keys
        }

        /// These options with every bound clamped to 1 to ``maximumCapacity`` (the properties are mutable).
        var clamped: Options {
            var options = self
            options.replayCapacity = Self.clamped(replayCapacity)
            options.deliveredMemory = Self.clamped(deliveredMemory)
            options.pendingEventCapacity = Self.clamped(pendingEventCapacity)
            return options
        }

        private static func clamped(_ bound: Int) -> Int { min(max(1, bound), maximumCapacity) }
    }
}
