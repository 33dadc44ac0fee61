/// The host's notification display: asks for permission and shows Binoban data pushes.
///
/// The core never displays anything and never opens a URL; an iOS host implements this edge with
/// `UNUserNotificationCenter`. The default, ``NoOpNotificationPresenter``, shows nothing, which is right on a
/// server. Both calls may arrive on any task.
public protocol NotificationPresenter: Sendable {
    /// Asks the user for notification permission.
    func requestPermission(_ request: NotificationPermissionRequest) async -> NotificationPermissionResult
    /// Displays one notification, installing `request.category` with ``NotificationCategoryRegistry`` first.
    ///
    /// Return ``NotificationDisplayResult/Outcome/failed(reason:)`` when it could not be shown (for example
    /// permission denied): the SDK then reports a `FAILED` interaction with that reason.
    func display(_ request: NotificationDisplayRequest) async -> NotificationDisplayResult
}

/// A presenter that shows nothing and asks nothing: the default on Linux and servers.
public struct NoOpNotificationPresenter: NotificationPresenter {
    /// Creates the no-op presenter.
    public init() {}

    /// Returns ``NotificationPermissionResult/Status-swift.enum/unavailable``.
    public func requestPermission(_ request: NotificationPermissionRequest) async -> NotificationPermissionResult {
        NotificationPermissionResult(status: .unavailable)
    }

    /// Returns ``NotificationDisplayResult/Outcome/notDisplayed(reason:)``: nothing is shown, nothing failed.
    public func display(_ request: NotificationDisplayRequest) async -> NotificationDisplayResult {
        NotificationDisplayResult(outcome: .notDisplayed(reason: "no notification presenter is installed"))
    }
}
