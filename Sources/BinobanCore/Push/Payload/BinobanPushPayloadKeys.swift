/// The one table of `userInfo` key names the notification layer reads and writes.
///
/// Binoban has not published its payload keys (spec §i Q7), so every name lives here and nowhere else: the
/// parser, the encoder and the display request all take their names from one value. Firebase flattens data
/// keys onto the top level of `userInfo`, and data values are strings, so every key is top level.
///
/// | Field | Key in ``standard`` |
/// |---|---|
/// | source marker | `source` (value `binoban`) |
/// | notification uuid | `binoban_notification_uuid` |
/// | title / body | `binoban_title` / `binoban_body` |
/// | main target uri | `binoban_uri` |
/// | action buttons | `binoban_actions` (JSON array of `{"id","title","uri"}`, or that array as a string) |
/// | per-button uri | `binoban_action_uri_` + action id |
/// | custom data | `binoban_cd_` + key |
///
/// Hosts only need another table if Binoban's backend changes a name before this package catches up.
public struct BinobanPushPayloadKeys: Sendable, Hashable {
    /// The key whose value marks a Binoban payload.
    public var source: String
    /// The value of ``source`` that marks a Binoban payload; compared exactly (case and whitespace matter).
    public var sourceValue: String
    /// The notification's unique id.
    public var notificationUuid: String
    /// The title to display.
    public var title: String
    /// The body to display.
    public var body: String
    /// The main target uri, reported for a body tap.
    public var uri: String
    /// The list of action buttons.
    public var actions: String
    /// Inside one action object: the action id.
    public var actionId: String
    /// Inside one action object: the button title.
    public var actionTitle: String
    /// Inside one action object: the button's own target uri.
    public var actionUri: String
    /// The prefix of the keys that stash a button's target uri, keyed by action id.
    public var actionUriPrefix: String
    /// The namespace of custom data; the prefix is removed in ``NotificationInteraction/customData``.
    public var customDataPrefix: String

    /// Creates a key table. Prefer ``standard``.
    public init(
        source: String,
        sourceValue: String,
        notificationUuid: String,
        title: String,
        body: String,
        uri: String,
        actions: String,
        actionId: String,
        actionTitle: String,
        actionUri: String,
        actionUriPrefix: String,
        customDataPrefix: String
    ) {
        self.source = source
        self.sourceValue = sourceValue
        self.notificationUuid = notificationUuid
        self.title = title
        self.body = body
        self.uri = uri
        self.actions = actions
        self.actionId = actionId
        self.actionTitle = actionTitle
        self.actionUri = actionUri
        self.actionUriPrefix = actionUriPrefix
        self.customDataPrefix = customDataPrefix
    }

    /// Why this table cannot be used, one value-free sentence per problem; empty when it can.
    ///
    /// A table is usable when its six top-level names (``source``, ``notificationUuid``, ``title``, ``body``,
    /// ``uri``, ``actions``) are non-empty and distinct, its three action-object names (``actionId``,
    /// ``actionTitle``, ``actionUri``) are non-empty and distinct, and its two prefixes are non-empty, neither
    /// starts with the other, and no top-level name starts with either (such a key would be read as a stashed
    /// uri or as custom data). ``BinobanNotifications`` checks this when it is created and keeps ``standard``
    /// for a table with problems, reported as ``NotificationDiagnostic/Code/invalidPayloadKeys``.
    ///
    /// - Complexity: O(1): the table has twelve names.
    public var problems: [String] {
        var problems: [String] = []
        let topLevel: [(String, String)] = [
            ("source", source), ("notificationUuid", notificationUuid), ("title", title), ("body", body),
            ("uri", uri), ("actions", actions),
        ]
        let actionObject: [(String, String)] = [
            ("actionId", actionId), ("actionTitle", actionTitle), ("actionUri", actionUri),
        ]
        let prefixes: [(String, String)] = [
            ("actionUriPrefix", actionUriPrefix), ("customDataPrefix", customDataPrefix),
        ]
        for group in [topLevel, actionObject, prefixes] {
            for (offset, (field, name)) in group.enumerated() {
                if name.isEmpty { problems.append("\(field) is empty") }
                for (other, otherName) in group[..<offset] where !name.isEmpty && name == otherName {
                    problems.append("\(field) and \(other) are the same name")
                }
            }
        }
        for (prefixField, prefix) in prefixes where !prefix.isEmpty {
            for (field, name) in topLevel where name.utf8.starts(with: prefix.utf8) {
                problems.append("\(field) starts with \(prefixField)")
            }
        }
        if !actionUriPrefix.isEmpty, !customDataPrefix.isEmpty, actionUriPrefix != customDataPrefix,
            actionUriPrefix.utf8.starts(with: customDataPrefix.utf8)
                || customDataPrefix.utf8.starts(with: actionUriPrefix.utf8)
        {
            problems.append("actionUriPrefix and customDataPrefix start with one another")
        }
        return problems
    }

    /// The key names this package uses (Docs/Decisions/0400).
    public static let standard = BinobanPushPayloadKeys(
        source: "source",
        sourceValue: "binoban",
        notificationUuid: "binoban_notification_uuid",
        title: "binoban_title",
        body: "binoban_body",
        uri: "binoban_uri",
        actions: "binoban_actions",
        actionId: "id",
        actionTitle: "title",
        actionUri: "uri",
        actionUriPrefix: "binoban_action_uri_",
        customDataPrefix: "binoban_cd_"
    )
}
