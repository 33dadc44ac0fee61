/// One accepted call, stamped on the caller's thread and encoded later by the driver.
///
/// It carries the identity of the moment it was accepted, so a `reset()` or `identify()` right after does not
/// change it.
struct PendingEvent: Sendable {
    enum Kind: Sendable {
        case track
        case identify
    }

    var kind: Kind
    /// The event name (track only).
    var name: String
    /// `properties` (track) or `traits` (identify).
    var payload: JSONValue
    var messageId: String
    var timestampMillis: Int64
    var anonymousId: String
    var userId: String?
    var deviceToken: String?
}
