/// A Binoban push, read from a notification's `userInfo`.
///
/// Build one with ``parse(_:keys:)``; turn one back into a flat, Firebase-style `userInfo` with
/// ``userInfo(keys:)``. At most ``maximumActionCount`` buttons are kept.
public struct BinobanPushPayload: Sendable, Hashable {
    /// The most action buttons a notification carries; extra buttons are dropped and reported.
    public static let maximumActionCount = 3

    /// The notification's unique id; never blank.
    public var notificationUuid: String
    /// The title to display, if any.
    public var title: String?
    /// The body to display, if any.
    public var body: String?
    /// The main target uri, reported for a body tap, if any.
    public var uri: String?
    /// The action buttons, in payload order, at most ``maximumActionCount``.
    public var actions: [BinobanPushAction]
    /// The custom data with the namespace prefix removed, or `nil` when the payload has none.
    public var customData: [String: String]?
    /// Per-button targets carried in `userInfo` under ``BinobanPushPayloadKeys/actionUriPrefix`` + action id
    /// (`binoban_action_uri_<id>`), keyed by action id, for buttons that are not listed in ``actions``: a
    /// tapped button still reports its own target ("per-button targets are carried in userInfo and resolved by
    /// actionId"). Targets of listed buttons are in their ``BinobanPushAction/uri``.
    public var actionTargets: [String: String]

    /// Creates a payload.
    public init(
        notificationUuid: String,
        title: String? = nil,
        body: String? = nil,
        uri: String? = nil,
        actions: [BinobanPushAction] = [],
        customData: [String: String]? = nil,
        actionTargets: [String: String] = [:]
    ) {
        self.notificationUuid = notificationUuid
        self.title = title
        self.body = body
        self.uri = uri
        self.actions = actions
        self.customData = customData
        self.actionTargets = actionTargets
    }

    /// The target uri of the button `actionId`: the listed button's own uri, else its target in
    /// ``actionTargets``, else `nil`.
    ///
    /// Never falls back to the main ``uri``: a button without a target reports no uri.
    public func uri(forAction actionId: String) -> String? {
        actions.first { $0.id == actionId }?.uri ?? actionTargets[actionId]
    }
}

/// One action button of a Binoban push.
public struct BinobanPushAction: Sendable, Hashable {
    /// The action id reported back when the button is tapped; never blank.
    public var id: String
    /// The button title.
    public var title: String
    /// The button's own target uri, if any.
    public var uri: String?

    /// Creates an action button.
    public init(id: String, title: String, uri: String? = nil) {
        self.id = id
        self.title = title
        self.uri = uri
    }
}
