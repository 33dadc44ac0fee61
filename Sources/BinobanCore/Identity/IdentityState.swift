#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The identity attached to events: persisted, changed only by `identify`, `reset` and `setDeviceToken`.
struct IdentityState: Sendable, Hashable {
    var anonymousId: String
    var userId: String?
    var traits: JSONValue
    var deviceToken: String?
    var deviceId: String

    private enum Key {
        static let anonymousId = "anonymousId"
        static let userId = "userId"
        static let traits = "traits"
        static let deviceToken = "deviceToken"
        static let deviceId = "deviceId"
    }

    /// Restores identity from a snapshot, generating what is missing. `generated` is true when something new
    /// was created and must be persisted.
    static func restore(
        from snapshot: BinobanKeyValueSnapshot,
        newID: () -> String
    ) -> (identity: IdentityState, generated: Bool) {
        var generated = false
        let values = snapshot.values
        let anonymousId: String
        if let stored = values[Key.anonymousId], !stored.isEmpty {
            anonymousId = stored
        } else {
            anonymousId = newID()
            generated = true
        }
        let deviceId: String
        if let stored = values[Key.deviceId], !stored.isEmpty {
            deviceId = stored
        } else {
            deviceId = newID()
            generated = true
        }
        var traits: JSONValue = [:]
        if let text = values[Key.traits],
            let parsed = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)),
            parsed.objectValue != nil
        {
            traits = parsed
        }
        let userId = values[Key.userId].flatMap { $0.isEmpty ? nil : $0 }
        let token = values[Key.deviceToken].flatMap { $0.isEmpty ? nil : $0 }
        return (
            IdentityState(
                anonymousId: anonymousId, userId: userId, traits: traits, deviceToken: token, deviceId: deviceId),
            generated
        )
    }

    /// The snapshot to persist.
    var snapshot: BinobanKeyValueSnapshot {
        var values: [String: String] = [Key.anonymousId: anonymousId, Key.deviceId: deviceId]
        if let userId { values[Key.userId] = userId }
        if let deviceToken { values[Key.deviceToken] = deviceToken }
        if traits != [:] { values[Key.traits] = traits.jsonString() }
        return BinobanKeyValueSnapshot(values: values)
    }
}
