#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One event in the intake's queue: encoded by its caller (the usual case), or still structured when the loop
/// must encode it (the host's before-send stages run on it first, or the pipeline had not started when it came).
/// Either way it is encoded exactly once (Docs/Decisions/0220).
enum QueuedEvent: Sendable {
    case encoded(EncodedEvent)
    /// Boxed: a structured event is several times the size of an encoded one, and the queue holds thousands.
    indirect case structured(PendingEvent)

    /// The `messageId` as sent.
    var messageIdText: String {
        switch self {
        case .encoded(let event): event.messageId.text
        case .structured(let event): event.messageIdText
        }
    }

    /// The event in structured form, `nil` when its caller encoded it.
    var structured: PendingEvent? {
        if case .structured(let event) = self { return event }
        return nil
    }

    /// The event as JSON, `nil` while it is structured.
    var json: Data? {
        if case .encoded(let event) = self { return event.json }
        return nil
    }
}

/// An event its caller encoded, with the few facts about it the pipeline needs without reading its JSON: its
/// message id (for the delivery observer and awaited outcomes, Decision 0219) and whether a caller awaits it.
struct EncodedEvent: Sendable {
    /// The whole JSON object, as it is stored and sent.
    var json: Data
    var messageId: EventMessageID
    /// A caller awaits this event's outcome (``BinobanServerEvents/awaitingDelivery``).
    var isAwaited: Bool
}

/// An event's `messageId`: the generated one, or the id its host gave (a server call's ``BinobanMessageFields``).
/// The text is made only when the pipeline names events: a 36-byte `String` per event is an allocation.
struct EventMessageID: Sendable, Equatable {
    var generated: MessageID
    var hostGiven: String?

    /// The `messageId` as sent.
    var text: String { hostGiven ?? generated.text }
}
