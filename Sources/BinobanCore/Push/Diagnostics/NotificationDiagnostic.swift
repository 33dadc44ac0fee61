/// Something the notification layer dropped, changed or could not do, reported instead of being lost silently.
///
/// Diagnostics never carry push tokens, titles, bodies, URIs or custom-data values: only the kind of problem,
/// and where useful a key name or a count, so they are safe to log.
///
/// ```swift
/// let notifications = BinobanNotifications(diagnostics: { diagnostic in
///     print("push: \(diagnostic)")
/// })
/// ```
public struct NotificationDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem. New codes may be added in minor releases.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) { self.name = name }

        /// A token that was empty or whitespace only; it was ignored.
        public static let blankTokenIgnored = Code("blankTokenIgnored")
        /// A Binoban payload without a usable notification uuid; it produced no event and no interaction.
        public static let missingNotificationUuid = Code("missingNotificationUuid")
        /// A Binoban payload field had the wrong type or shape and was ignored.
        public static let invalidField = Code("invalidField")
        /// A payload carried more than three action buttons; the extra buttons were dropped.
        public static let extraActionsDropped = Code("extraActionsDropped")
        /// An action button without an id, or with an id already used, was dropped.
        public static let invalidActionDropped = Code("invalidActionDropped")
        /// A custom-data value was not a string; it was carried as its JSON text, or dropped when `null`.
        public static let customDataValueConverted = Code("customDataValueConverted")
        /// A `userInfo` entry JSON cannot carry (a non-string key or an arbitrary object) was ignored.
        public static let userInfoEntryIgnored = Code("userInfoEntryIgnored")
        /// A push arrived before `initializeNotifications(configuration:)`; it was not displayed.
        public static let notInitialized = Code("notInitialized")
        /// The presenter could not display a notification; a `FAILED` interaction was dispatched.
        public static let displayFailed = Code("displayFailed")
        /// Notification permission was not granted when asked at start.
        public static let permissionNotGranted = Code("permissionNotGranted")
        /// The configured ``BinobanPushPayloadKeys`` had ``BinobanPushPayloadKeys/problems`` (such as two fields
        /// with the same name); the layer uses ``BinobanPushPayloadKeys/standard`` instead.
        public static let invalidPayloadKeys = Code("invalidPayloadKeys")
        /// Events waiting for the first Binoban instance exceeded their bound; the oldest were dropped.
        public static let pendingEventsDropped = Code("pendingEventsDropped")

        /// The code's name, such as `extraActionsDropped`.
        public var description: String { name }
    }

    /// The kind of problem.
    public var code: Code
    /// A short, value-free explanation.
    public var message: String

    /// Creates a diagnostic.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
