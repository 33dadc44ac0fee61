/// One accepted call, stamped on the caller's thread and encoded later by the driver.
///
/// It carries the identity of the moment it was accepted, so a `reset()` or `identify()` right after does not
/// change it. When the write stage is deep, the caller has already encoded the part of a track event that does
/// not depend on identity (``encodedHead``), and the intake the rest once the pipeline runs (``encodedWhole``).
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
    var messageId: MessageID
    var timestampMillis: Int64
    var anonymousId: String
    var userId: String?
    var deviceToken: String?
    /// `{"type":"track","event":…,"properties":…,"messageId":…,"timestamp":…` when the caller encoded it (the
    /// ``payload`` is then `.null`, so the queued event holds its compact bytes only).
    var encodedHead: [UInt8]? = nil
    /// ``encodedHead`` holds the whole JSON object: the intake added the identity and the instance's context.
    var encodedWhole = false
}
