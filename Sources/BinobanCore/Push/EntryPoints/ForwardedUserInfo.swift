/// A forwarded `userInfo` as JSON, with what the conversion from a loosely typed dictionary could not carry.
struct ForwardedUserInfo: Sendable {
    var value: JSONValue
    var conversionDiagnostics: [NotificationDiagnostic]

    init(_ value: JSONValue) {
        self.value = value
        conversionDiagnostics = []
    }

    /// Converts a UIKit-style `userInfo`. A payload whose `source` is not Binoban's is not converted at all (it
    /// becomes `null`, which no parser accepts): most pushes an app sees are someone else's.
    init(converting userInfo: [AnyHashable: Any], keys: BinobanPushPayloadKeys) {
        guard Self.isBinobanSource(userInfo[AnyHashable(keys.source)], keys: keys) else {
            self.init(.null)
            return
        }
        self.init(convertingAny: userInfo)
    }

    /// Converts a string-keyed `userInfo`, skipping non-Binoban payloads as above.
    init(converting userInfo: [String: Any], keys: BinobanPushPayloadKeys) {
        guard Self.isBinobanSource(userInfo[keys.source], keys: keys) else {
            self.init(.null)
            return
        }
        self.init(convertingAny: userInfo)
    }

    /// Entries JSON cannot carry are dropped and described (by path and type, never by value).
    private init(convertingAny userInfo: Any) {
        let conversion = JSONValue.convert(any: userInfo)
        value = conversion.value
        conversionDiagnostics = conversion.issues.map { issue in
            NotificationDiagnostic(code: .userInfoEntryIgnored, message: "userInfo \(issue)")
        }
    }

    /// Whether `source` converts to exactly the Binoban marker, by the same rules as the whole dictionary.
    private static func isBinobanSource(_ source: Any?, keys: BinobanPushPayloadKeys) -> Bool {
        guard let source else { return false }
        return JSONValue.convert(any: source).value == .string(keys.sourceValue)
    }
}
