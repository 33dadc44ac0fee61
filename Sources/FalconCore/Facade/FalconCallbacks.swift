/// The host closures of one execution; released when the execution ends.
struct FalconCallbacks: Sendable {
    var onLoad: @Sendable () -> Void
    var onUnload: @Sendable () -> Void
    var onError: @Sendable (any Error) -> Void
    var onShouldShowLoadingIndicator: @Sendable () -> Void
    var onShouldHideLoadingIndicator: @Sendable () -> Void

    func job(for callback: FalconExecutionStateMachine.Callback) -> @Sendable () -> Void {
        switch callback {
        case .showLoadingIndicator: return onShouldShowLoadingIndicator
        case .hideLoadingIndicator: return onShouldHideLoadingIndicator
        case .load: return onLoad
        case .unload: return onUnload
        case .error(let error):
            let onError = self.onError
            return { onError(error) }
        }
    }
}
