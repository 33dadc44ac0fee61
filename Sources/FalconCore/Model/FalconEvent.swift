/// A lifecycle event of one placement, delivered to the handler registered for its `layout_id`.
///
/// Register with ``Falcon/events(layoutId:handler:)``. Events carry no payload, so two executions sharing
/// a layout id cannot be told apart by the handler.
public enum FalconEvent: Sendable {
    /// More than 50 % of the placement has been visible for at least one second; at most once per execute.
    case placementInteractive
    /// The placement was engaged with and removed from the UI (the web content closed it).
    case placementCompleted
    /// The placement failed to load; always delivered together with (after) `onError`.
    case placementFailure(any Error)

    /// A stable, payload-free name for logs and timelines: `placementInteractive`, `placementCompleted` or
    /// `placementFailure(<error>)`.
    public var name: String {
        switch self {
        case .placementInteractive: "placementInteractive"
        case .placementCompleted: "placementCompleted"
        case .placementFailure(let error): "placementFailure(\(error))"
        }
    }
}
