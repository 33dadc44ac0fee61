#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a caller needs to encode an event by itself: the instance's encoder and the identity of the moment, with
/// the end of a mobile track event under that identity encoded once (``trackTail``).
///
/// The intake makes a new one at every identity change, so the object is the identity's generation: a caller
/// that encoded against one hands it back with the event, and the intake takes the event only if it is still
/// the current one (else the caller encodes again). An event thus keeps the identity of the moment it was
/// accepted, although it was encoded outside the intake's lock.
final class EncodingSnapshot: Sendable {
    let identity: IdentityState
    let encoder: EventEncoder
    /// `,"anonymousId":…,"userId":…,"context":{…}}`: everything of a mobile track event after its timestamp.
    let trackTail: [UInt8]

    init(identity: IdentityState, encoder: EventEncoder) {
        self.identity = identity
        self.encoder = encoder
        trackTail = encoder.trackTail(for: identity)
    }

    /// A mobile event (``Binoban/track(name:properties:)`` and the instance's other calls) with this identity.
    func encodeMobile(
        _ kind: PendingEvent.Kind, name: String, payload: JSONValue, messageId: MessageID, timestampMillis: Int64
    ) -> Data {
        guard kind == .track else {
            return encoder.encode(
                PendingEvent(
                    kind: kind, name: name, payload: payload, messageId: messageId, timestampMillis: timestampMillis,
                    anonymousId: identity.anonymousId, userId: identity.userId, deviceToken: identity.deviceToken))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(trackTail.count + name.utf8.count + 192)
        EventEncoder.appendTrackHead(
            name: name, properties: payload, messageId: messageId, timestampMillis: timestampMillis, to: &bytes)
        // Borrowed, not passed: `append(contentsOf: trackTail)` takes its argument owned, so the shared tail's
        // buffer was retained and released around every event, an atomic write to one counter from every producer.
        trackTail.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
        return Data(bytes)
    }
}
