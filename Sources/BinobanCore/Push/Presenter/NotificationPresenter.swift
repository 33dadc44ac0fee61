/// The host's notification display: asks for permission and shows Binoban data pushes.
///
/// The core never displays anything and never opens a URL; an iOS host implements this edge with
/// `UNUserNotificationCenter`. The default, ``NoOpNotificationPresenter``, shows nothing, which is right on a
/// server. Calls may arrive on any task; displays arrive one at a time, in the order the pushes arrived (the
/// next ``categoriesInUse()`` and ``display(_:)`` wait until the previous display returned), so both must
/// return: a display that never returns holds up every later one.
public protocol NotificationPresenter: Sendable {
    /// Asks the user for notification permission.
    func requestPermission(_ request: NotificationPermissionRequest) async -> NotificationPermissionResult
    /// Displays one notification, installing `request.category` with ``NotificationCategoryRegistry`` first
    /// (passing ``NotificationDisplayRequest/categoriesInUse`` so no category a shown notification uses is
    /// removed).
    ///
    /// Return ``NotificationDisplayResult/Outcome/failed(reason:)`` when it could not be shown (for example
    /// permission denied): the SDK then reports a `FAILED` interaction with that reason.
    func display(_ request: NotificationDisplayRequest) async -> NotificationDisplayResult
    /// The identifiers of the categories that notifications the platform still shows use (on iOS the
    /// `content.categoryIdentifier` of `deliveredNotifications()` and `pendingNotificationRequests()`), or `nil`
    /// when the presenter cannot tell.
    ///
    /// The SDK asks right before each ``display(_:)`` and hands the answer over in
    /// ``NotificationDisplayRequest/categoriesInUse``. The default implementation returns `nil`: the registry then
    /// caps the SDK's categories without knowing which are in use, and a long session may lose an old
    /// notification's buttons.
    func categoriesInUse() async -> Set<String>?
}

extension NotificationPresenter {
    /// Returns `nil`: this presenter cannot tell which categories are in use.
    public func categoriesInUse() async -> Set<String>? { nil }
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
