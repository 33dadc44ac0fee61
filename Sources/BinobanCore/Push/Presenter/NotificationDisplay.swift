/// One notification to display, built by the SDK from a Binoban data push.
public struct NotificationDisplayRequest: Sendable, Hashable {
    /// The notification's unique id; use it as the platform request identifier.
    public var notificationUuid: String
    /// The title, if the push has one.
    public var title: String?
    /// The body, if the push has one.
    public var body: String?
    /// A sound file name from the app bundle, or `nil` for the system default.
    public var soundName: String?
    /// The category carrying this notification's buttons (and dismissal reporting). Merge it into the
    /// installed categories with ``NotificationCategoryRegistry``; never replace them wholesale.
    public var category: NotificationCategory
    /// The `userInfo` to attach to the shown notification: the push as received (other senders' keys such as
    /// Firebase's kept), with the Binoban fields normalized and each button's uri stashed under its action id so
    /// that a button tap resolves to that button's target.
    public var userInfo: JSONValue
    /// The categories that notifications still shown use, as the presenter reported them
    /// (``NotificationPresenter/categoriesInUse()``) right before this display; `nil` when it cannot tell. Pass
    /// it to ``NotificationCategoryRegistry/merge(_:into:inUse:identifier:make:)``.
    public var categoriesInUse: Set<String>?

    /// Creates a display request without an in-use report (``categoriesInUse`` `nil`).
    public init(
        notificationUuid: String,
        title: String?,
        body: String?,
        soundName: String?,
        category: NotificationCategory,
        userInfo: JSONValue
    ) {
        self.init(
            notificationUuid: notificationUuid, title: title, body: body, soundName: soundName, category: category,
            userInfo: userInfo, categoriesInUse: nil)
    }

    /// Creates a display request.
    public init(
        notificationUuid: String,
        title: String?,
        body: String?,
        soundName: String?,
        category: NotificationCategory,
        userInfo: JSONValue,
        categoriesInUse: Set<String>?
    ) {
        self.notificationUuid = notificationUuid
        self.title = title
        self.body = body
        self.soundName = soundName
        self.category = category
        self.userInfo = userInfo
        self.categoriesInUse = categoriesInUse
    }
}

/// What became of a display request.
public struct NotificationDisplayResult: Sendable, Hashable {
    /// The outcome of one display attempt.
    public enum Outcome: Sendable, Hashable {
        /// The notification is shown.
        case displayed
        /// Nothing was shown and nothing failed: not a Binoban push, not initialized, or no presenter.
        case notDisplayed(reason: String)
        /// The notification could not be shown; the SDK reports a `FAILED` interaction with `reason`.
        case failed(reason: String)
    }

    /// The outcome.
    public var outcome: Outcome

    /// Creates a result.
    public init(outcome: Outcome) {
        self.outcome = outcome
    }
}
