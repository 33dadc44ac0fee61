extension BinobanNotifications {
    /// Asks the presenter to display a Binoban data push, with `userInfo` as UIKit passes it.
    ///
    /// Entries JSON cannot carry are ignored (reported for a Binoban payload). See
    /// the `JSONValue` overload.
    @discardableResult
    public func onApplicationDidReceiveRemoteNotification(
        userInfo: [AnyHashable: Any]
    ) -> Task<NotificationDisplayResult, Never> {
        displayRemoteNotification(ForwardedUserInfo(converting: userInfo, keys: options.keys))
    }

    /// Asks the presenter to display a Binoban data push, with `userInfo` as a string-keyed dictionary.
    @discardableResult
    public func onApplicationDidReceiveRemoteNotification(
        userInfo: [String: Any]
    ) -> Task<NotificationDisplayResult, Never> {
        displayRemoteNotification(ForwardedUserInfo(converting: userInfo, keys: options.keys))
    }

    /// Reports `DELIVERED` once per notification, with `userInfo` as `UNNotificationContent` carries it.
    public func onWillPresentForwarded(userInfo: [AnyHashable: Any]) {
        willPresent(ForwardedUserInfo(converting: userInfo, keys: options.keys))
    }

    /// Reports `DELIVERED` once per notification, with `userInfo` as a string-keyed dictionary.
    public func onWillPresentForwarded(userInfo: [String: Any]) {
        willPresent(ForwardedUserInfo(converting: userInfo, keys: options.keys))
    }

    /// Reports `CLICKED` or `CLOSED`, with `userInfo` as `UNNotificationContent` carries it.
    public func onDidReceiveForwarded(userInfo: [AnyHashable: Any], actionId: String?, dismissed: Bool) {
        didReceive(
            ForwardedUserInfo(converting: userInfo, keys: options.keys), actionId: actionId, dismissed: dismissed)
    }

    /// Reports `CLICKED` or `CLOSED`, with `userInfo` as a string-keyed dictionary.
    public func onDidReceiveForwarded(userInfo: [String: Any], actionId: String?, dismissed: Bool) {
        didReceive(
            ForwardedUserInfo(converting: userInfo, keys: options.keys), actionId: actionId, dismissed: dismissed)
    }

    /// Reports `OPENED`, with `userInfo` as UIKit passes it.
    public func onNotificationOpened(userInfo: [AnyHashable: Any]) {
        opened(ForwardedUserInfo(converting: userInfo, keys: options.keys))
    }

    /// Reports `OPENED`, with `userInfo` as a string-keyed dictionary.
    public func onNotificationOpened(userInfo: [String: Any]) {
        opened(ForwardedUserInfo(converting: userInfo, keys: options.keys))
    }
}
