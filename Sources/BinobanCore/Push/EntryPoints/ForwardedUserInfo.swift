/// A forwarded `userInfo` as JSON, with what the conversion from `[AnyHashable: Any]` could not carry.
struct ForwardedUserInfo: Sendable {
    var value: JSONValue
    var conversionDiagnostics: [NotificationDiagnostic]

    init(_ value: JSONValue) {
        self.value = value
        conversionDiagnostics = []
    }

    /// Converts a loosely typed `userInfo`; entries JSON cannot carry are dropped and described (by path and
    /// type, never by value).
    init(converting userInfo: Any) {
        let conversion = JSONValue.convert(any: userInfo)
        value = conversion.value
        conversionDiagnostics = conversion.issues.map { issue in
            NotificationDiagnostic(code: .userInfoEntryIgnored, message: "userInfo \(issue)")
        }
    }
}
