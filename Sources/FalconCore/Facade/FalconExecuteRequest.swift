/// The arguments of one `execute` call with its attributes already converted to JSON.
///
/// Every public `execute` overload (on ``Falcon`` and ``FalconClient``, now or on the next turn) builds one
/// and hands it to the client, so the plumbing from parameters to an execution exists once.
struct FalconExecuteRequest: Sendable {
    var attributes: JSONValue
    var placement: FalconPlacement
    var style: FalconStyle?
    var callbacks: FalconCallbacks
    var isSandbox: Bool

    /// Takes the parameters of the public `execute` calls, with the same labels and in the same order.
    init(
        attributes: JSONValue,
        placement: FalconPlacement,
        style: FalconStyle?,
        onLoad: @escaping @Sendable () -> Void,
        onUnload: @escaping @Sendable () -> Void,
        onError: @escaping @Sendable (any Error) -> Void,
        onShouldShowLoadingIndicator: @escaping @Sendable () -> Void,
        onShouldHideLoadingIndicator: @escaping @Sendable () -> Void,
        isSandbox: Bool
    ) {
        self.attributes = attributes
        self.placement = placement
        self.style = style
        self.callbacks = FalconCallbacks(
            onLoad: onLoad,
            onUnload: onUnload,
            onError: onError,
            onShouldShowLoadingIndicator: onShouldShowLoadingIndicator,
            onShouldHideLoadingIndicator: onShouldHideLoadingIndicator
        )
        self.isSandbox = isSandbox
    }
}
