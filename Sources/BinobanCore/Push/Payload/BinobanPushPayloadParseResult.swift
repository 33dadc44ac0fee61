/// What ``BinobanPushPayload/parse(_:keys:)`` made of a `userInfo`.
public enum BinobanPushPayloadParseResult: Sendable, Hashable {
    /// Not a Binoban payload (`source` is missing or not exactly `binoban`): ignore it, report nothing.
    case notBinoban
    /// A Binoban payload, with what was dropped or converted on the way.
    case binoban(BinobanPushPayload, diagnostics: [NotificationDiagnostic])
    /// Marked as Binoban but unusable (no notification uuid): no event, no interaction, only diagnostics.
    case malformed(diagnostics: [NotificationDiagnostic])

    /// The payload, when there is one.
    public var payload: BinobanPushPayload? {
        if case .binoban(let payload, _) = self { return payload }
        return nil
    }

    /// The diagnostics, empty for ``notBinoban``.
    public var diagnostics: [NotificationDiagnostic] {
        switch self {
        case .notBinoban: return []
        case .binoban(_, let diagnostics): return diagnostics
        case .malformed(let diagnostics): return diagnostics
        }
    }
}
