/// The phase a navigation failed in.
public enum FalconNavigationPhase: Sendable, Hashable {
    /// Before the response was committed.
    case provisional
    /// After the response was committed.
    case committed
}
