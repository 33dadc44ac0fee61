/// The channel through which a renderer, the overlay presenter or the host reports on one execution.
///
/// Reports after the execution ended are ignored, so a renderer may report late without harm. The reporter
/// holds its client's driver weakly: keeping it does not keep the SDK alive.
public final class FalconExecutionReporter: Sendable {
    private weak let driver: FalconDriver?
    /// The execution this reporter belongs to (unique within its client).
    package let executionID: UInt64

    init(driver: FalconDriver?, executionID: UInt64) {
        self.driver = driver
        self.executionID = executionID
    }

    /// Reports a navigation response; `status` is the HTTP status for HTTP responses.
    public func navigationResponse(navigationID: Int, isMainFrame: Bool, status: Int?) {
        send(.navigationResponse(navigationID: navigationID, isMainFrame: isMainFrame, status: status))
    }

    /// Reports a finished navigation.
    public func navigationFinished(navigationID: Int) {
        send(.navigationFinished(navigationID: navigationID))
    }

    /// Reports a failed navigation. Pass `isCancelled` for cancellations (`NSURLErrorCancelled`, frame load
    /// interrupted); those never fail the placement. `errorCode` is the numeric code only.
    public func navigationFailed(
        navigationID: Int,
        phase: FalconNavigationPhase,
        isCancelled: Bool,
        errorCode: Int?
    ) {
        send(
            .navigationFailed(navigationID: navigationID, phase: phase, isCancelled: isCancelled, errorCode: errorCode)
        )
    }

    /// Reports a bridge message as delivered on iOS (a dictionary).
    ///
    /// The value comes from web content, so it gets the limits of text (`JSONParsingLimits.untrusted`): a
    /// value whose compact JSON text would pass 64 KiB, or that nests deeper than 64 levels, is ignored and
    /// logged at debug level with the reason, never the content. The check stops at the first limit passed.
    public func bridgeMessage(_ message: JSONValue) {
        do {
            send(.bridge(try FalconBridgeMessage.parse(message)))
        } catch {
            driver?.logRejectedBridgeMessage(error)
            send(.bridge(.ignored))
        }
    }

    /// Reports a bridge message as delivered on Android (a JSON string).
    ///
    /// The text comes from web content, so it is parsed with the limits of untrusted input
    /// (`JSONParsingLimits.untrusted`: 64 KiB, 64 levels of nesting) in time linear in its length. Text over
    /// the limits, or not JSON, is ignored and logged at debug level with the reason, never the text.
    public func bridgeMessage(json: String) {
        do {
            send(.bridge(try FalconBridgeMessage.parse(json: json)))
        } catch {
            driver?.logRejectedBridgeMessage(error)
            send(.bridge(.ignored))
        }
    }

    /// Reports the visible fraction of the placement (0...1; NaN counts as 0).
    public func visibility(_ fraction: Double) {
        send(.visibility(fraction))
    }

    /// Reports a real user touch on the placement (opens the click gate for one second).
    public func userTouch() {
        send(.userTouch)
    }

    /// Reports that the web content process terminated.
    public func rendererTerminated() {
        send(.rendererTerminated)
    }

    /// Reports that the host removed the surface (view removed or deallocated, SwiftUI unmount).
    ///
    /// A placement that had loaded gets `onUnload`: it was removed from the UI.
    public func hostTeardown() {
        send(.hostTeardown)
    }

    /// Presenter: the modal is on screen and `renderer` shows its content.
    public func overlayPresented(renderer: any FalconRenderer) {
        driver?.overlayPresented(executionID: executionID, renderer: renderer)
    }

    /// Presenter: there is nowhere to present.
    public func overlayUnavailable() {
        send(.overlayUnavailable)
    }

    /// Presenter: the dismissal the SDK asked for has finished.
    public func overlayDismissed() {
        send(.overlayDismissed(external: false))
    }

    /// Presenter: the modal was dismissed without the SDK asking (for example by the system).
    public func overlayDismissedExternally() {
        send(.overlayDismissed(external: true))
    }

    private func send(_ input: FalconExecutionStateMachine.Input) {
        driver?.submit(input, executionID: executionID)
    }
}
