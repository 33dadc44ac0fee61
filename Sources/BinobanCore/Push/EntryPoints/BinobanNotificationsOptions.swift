extension BinobanNotifications {
    /// The bounds and key names of one notification layer. The defaults suit every app; a bound below 1
    /// counts as 1.
    public struct Options: Sendable, Hashable {
        /// Interactions kept for ``NotificationInteractionManager/drainPendingInteractions()``; oldest dropped.
        public var replayCapacity: Int
        /// Notification uuids remembered to report `DELIVERED` once each; the oldest is forgotten first.
        public var deliveredMemory: Int
        /// Events kept while no Binoban instance is attached; oldest dropped and reported.
        public var pendingEventCapacity: Int
        /// The `userInfo` key names.
        public var keys: BinobanPushPayloadKeys

        /// Creates options: replay 16, delivered memory 256, 32 pending events, the standard keys.
        public init(
            replayCapacity: Int = 16,
            deliveredMemory: Int = 256,
            pendingEventCapacity: Int = 32,
            keys: BinobanPushPayloadKeys = .standard
        ) {
            self.replayCapacity = replayCapacity
            self.deliveredMemory = deliveredMemory
            self.pendingEventCapacity = pendingEventCapacity
            self.keys = keys
        }
    }
}
