/// The identity for one event, for server hosts that track on behalf of many users.
///
/// Given to `track(name:properties:as:)`, `identify(traits:as:)` and `server.screen(title:properties:as:)`;
/// the instance's own identity is not touched.
public struct BinobanEventIdentity: Sendable, Hashable {
    /// The userId for this event; `nil` or blank omits it.
    public var userId: String?
    /// The anonymousId for this event; `nil` uses the instance's anonymousId.
    public var anonymousId: String?

    /// Creates a per-event identity.
    public init(userId: String? = nil, anonymousId: String? = nil) {
        self.userId = userId
        self.anonymousId = anonymousId
    }
}
