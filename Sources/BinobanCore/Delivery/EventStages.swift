#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The host's before-send stages, which the write stage runs on each event before encoding it.
struct EventStages: Sendable {
    let stages: [any BinobanEventStage]

    /// `nil` when the host installed none, so the write stage keeps its plain path.
    init?(_ stages: [any BinobanEventStage]) {
        guard !stages.isEmpty else { return nil }
        self.stages = stages
    }

    /// Runs the stages in order on `event`; returns the reason of the stage that dropped it, if one did. Callers
    /// never encode while stages are installed (``EventIntake``), so every event reaches here structured.
    func run(on event: inout PendingEvent) -> String? {
        var value = event.publicValue
        for stage in stages {
            if case .drop(let reason) = stage.process(&value) { return reason }
        }
        event.apply(value)
        return nil
    }
}

/// Events a stage dropped in one chunk, by reason (as the stage gave it).
struct StageDrop: Sendable, Equatable {
    var reason: String
    var count: Int
    /// The events' message ids, when a delivery observer is installed.
    var messageIds: [String]
}

extension PendingEvent {
    /// The event as a stage sees it.
    var publicValue: BinobanEvent {
        BinobanEvent(
            type: kind.publicKind, name: name, properties: payload, messageId: messageIdText,
            timestamp: Date(timeIntervalSince1970: Double(timestampMillis) / 1000), anonymousId: anonymousId,
            userId: userId, context: server?.context ?? [:], integrations: server?.integrations,
            category: server?.category, groupId: server?.groupId, previousId: server?.previousId)
    }

    /// Takes what a stage changed (the type and message id cannot change). The server call's fields are made anew
    /// only when the event has any, and keep what a stage does not see: the host's message id, whether a caller
    /// awaits the event, and whether it is an instance call (whose context is merged over the instance's whole
    /// context, device id and token included).
    mutating func apply(_ value: BinobanEvent) {
        name = value.name
        payload = value.properties
        timestampMillis = Int64((value.timestamp.timeIntervalSince1970 * 1000).rounded())
        anonymousId = value.anonymousId
        userId = value.userId
        let hasServerFields =
            server != nil || !value.context.isEmpty || value.integrations != nil || value.category != nil
            || value.groupId != nil || value.previousId != nil
        guard hasServerFields else { return }
        server = ServerFields(
            messageId: server?.messageId, context: value.context, integrations: value.integrations,
            category: value.category, groupId: value.groupId, previousId: value.previousId,
            isAwaited: server?.isAwaited ?? false, isInstanceCall: server?.isInstanceCall ?? true)
    }
}

extension PendingEvent.Kind {
    /// The kind as the public event value names it.
    var publicKind: BinobanEvent.Kind {
        switch self {
        case .track: return .track
        case .identify: return .identify
        case .page: return .page
        case .screen: return .screen
        case .group: return .group
        case .alias: return .alias
        }
    }
}
