/// The identity for one event, for server hosts that track on behalf of many users.
///
/// Given to the server calls of ``Binoban/server`` (and to `track(name:properties:as:)` and
/// `identify(traits:as:)`); the instance's own identity is not touched. Each id that is given and not blank is
/// sent. A userId alone sends no anonymousId (the instance's would be shared by every user); with neither id the
/// event carries the instance's anonymousId and no userId.
public struct BinobanEventIdentity: Sendable, Hashable {
    /// The userId for this event; `nil` or blank sends none.
    public var userId: String?
    /// The anonymousId for this event; `nil` or blank sends none, unless the userId is missing too (then the
    /// instance's anonymousId is sent).
    public var anonymousId: String?

    /// Creates a per-event identity.
    public init(userId: String? = nil, anonymousId: String? = nil) {
        self.userId = userId
        self.anonymousId = anonymousId
    }
}
