/// The identity's persistence: one save at a time, and only the newest snapshot waits behind it.
///
/// `idle → due` (a drain carried an identity) `→ saving` (``PipelineAction/saveIdentity(_:)``)
/// `→ idle`, or `→ due` again when a newer snapshot arrived during the save.
enum IdentitySaving: Sendable, Equatable {
    /// Nothing to save.
    case idle
    /// A snapshot waits to be saved.
    case due(IdentityState)
    /// A save is in progress; `next` is the newest snapshot that arrived meanwhile.
    case saving(next: IdentityState?)

    /// A drain carried `identity`.
    mutating func changed(to identity: IdentityState) {
        switch self {
        case .idle, .due: self = .due(identity)
        case .saving: self = .saving(next: identity)
        }
    }

    /// The save in progress ended. Returns `false` (and changes nothing) when no save was in progress: the
    /// answer belongs to no request of this machine.
    mutating func saved() -> Bool {
        guard case .saving(let next) = self else { return false }
        self = next.map(IdentitySaving.due) ?? .idle
        return true
    }

    /// The snapshot to save now, if one is due and no save is in progress (which then starts).
    mutating func start() -> IdentityState? {
        guard case .due(let identity) = self else { return nil }
        self = .saving(next: nil)
        return identity
    }
}
