extension FalconClient {
    /// Starts an execution on the executor's next turn instead of now, for SwiftUI-style wrappers whose
    /// callbacks must never fire during a view update.
    ///
    /// The attributes are read now; the configuration is read when the execution starts. Cancel the returned
    /// handle when the view unmounts: before the turn, nothing at all happens.
    ///
    /// An overload takes `[String: Any]` attributes, converted as `execute(attributes:…)` converts them.
    @discardableResult
    public func executeOnNextTurn(
        attributes: JSONValue,
        placement: FalconPlacement,
        style: FalconStyle? = nil,
        onLoad: @escaping @Sendable () -> Void = {},
        onUnload: @escaping @Sendable () -> Void = {},
        onError: @escaping @Sendable (any Error) -> Void = { _ in },
        onShouldShowLoadingIndicator: @escaping @Sendable () -> Void = {},
        onShouldHideLoadingIndicator: @escaping @Sendable () -> Void = {},
        isSandbox: Bool = false
    ) -> FalconPendingExecution {
        let request = FalconExecuteRequest(
            attributes: attributes, placement: placement, style: style, onLoad: onLoad, onUnload: onUnload,
            onError: onError, onShouldShowLoadingIndicator: onShouldShowLoadingIndicator,
            onShouldHideLoadingIndicator: onShouldHideLoadingIndicator, isSandbox: isSandbox)
        let pending = FalconPendingExecution(client: self)
        dependencies.executor.enqueue { [weak self] in
            guard let self, pending.beginStart() else { return }
            pending.didStart(self.start(request))
        }
        return pending
    }

    /// Starts an execution with `[String: Any]` attributes on the executor's next turn, like the `JSONValue`
    /// overload.
    ///
    /// The dictionary is converted now (values JSON cannot carry are dropped and counted in a debug log line).
    @discardableResult
    public func executeOnNextTurn(
        attributes: [String: Any],
        placement: FalconPlacement,
        style: FalconStyle? = nil,
        onLoad: @escaping @Sendable () -> Void = {},
        onUnload: @escaping @Sendable () -> Void = {},
        onError: @escaping @Sendable (any Error) -> Void = { _ in },
        onShouldShowLoadingIndicator: @escaping @Sendable () -> Void = {},
        onShouldHideLoadingIndicator: @escaping @Sendable () -> Void = {},
        isSandbox: Bool = false
    ) -> FalconPendingExecution {
        executeOnNextTurn(
            attributes: convert(attributes), placement: placement, style: style, onLoad: onLoad, onUnload: onUnload,
            onError: onError, onShouldShowLoadingIndicator: onShouldShowLoadingIndicator,
            onShouldHideLoadingIndicator: onShouldHideLoadingIndicator, isSandbox: isSandbox)
    }
}
