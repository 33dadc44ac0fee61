/// Which ids a server call's event carries: the rule for per-call identity, in one place.
///
/// 1. An alias carries its `userId` as given and no anonymousId (the spec's alias takes none).
/// 2. A non-blank per-call anonymousId is sent; a non-blank per-call userId is sent.
/// 3. A per-call userId without an anonymousId sends no anonymousId: the instance's would be shared by every
///    person the server tracks, and an ingest would merge them into one.
/// 4. Neither id (both `nil` or blank): the instance's anonymousId, so the event is still one an ingest takes
///    (it needs one of the two), and no userId. With no per-call identity at all (`screen(title:properties:)`)
///    the instance's anonymousId and userId.
enum EventIdentityRule {
    static func ids(
        for kind: PendingEvent.Kind, given identity: BinobanEventIdentity?, instance: IdentityState
    ) -> (anonymousId: String?, userId: String?) {
        guard let identity else { return (instance.anonymousId, instance.userId) }
        if kind == .alias { return (nil, identity.userId ?? "") }
        let userId = nonBlank(identity.userId)
        let anonymousId = nonBlank(identity.anonymousId)
        if anonymousId == nil, userId == nil { return (instance.anonymousId, nil) }
        return (anonymousId, userId)
    }

    /// Whether ``ids(for:given:instance:)`` takes anything of the instance's identity (rules 4 and the call
    /// without a per-call identity): only such an event must be encoded again when the identity changes meanwhile.
    static func usesInstance(for kind: PendingEvent.Kind, given identity: BinobanEventIdentity?) -> Bool {
        guard let identity else { return true }
        if kind == .alias { return false }
        return nonBlank(identity.anonymousId) == nil && nonBlank(identity.userId) == nil
    }

    /// `id`, unless it is missing or blank (``isBlank(_:)``).
    private static func nonBlank(_ id: String?) -> String? {
        id.flatMap { isBlank($0) ? nil : $0 }
    }

    /// Whether `id` is empty or white space only (`trimmingWhitespace().isEmpty`, without building the trimmed
    /// string): asked twice per id of every server call, on the caller's thread. An id's first character settles
    /// it for any real id, and an ASCII one without a look-up in the Unicode tables.
    static func isBlank(_ id: String) -> Bool {
        id.unicodeScalars.allSatisfy { scalar in
            // Unicode's White_Space in ASCII: tab, line feed, vertical tab, form feed, carriage return, space.
            scalar.isASCII
                ? scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
        }
    }
}
