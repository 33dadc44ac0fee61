#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The identity attached to events: persisted, changed only by `identify`, `reset` and `setDeviceToken`.
///
/// The application release recorded by the last reported launch travels in the same snapshot (the store saves
/// whole snapshots), although it is not part of any event's identity.
struct IdentityState: Sendable, Hashable {
    var anonymousId: String
    var userId: String?
    var traits: JSONValue
    var deviceToken: String?
    var deviceId: String
    /// The version and build of the last launch the host reported; `nil` when none was ever reported.
    var application: ApplicationRelease?
    /// Stored entries this version does not know (written by a newer version of the SDK), saved back as they
    /// were so that a downgrade followed by an upgrade loses nothing.
    var unknownEntries: [String: String] = [:]

    fileprivate enum Key {
        static let all: Set<String> = [
            anonymousId, userId, traits, deviceToken, deviceId, applicationVersion, applicationBuild,
        ]
        static let anonymousId = "anonymousId"
        static let userId = "userId"
        static let traits = "traits"
        static let deviceToken = "deviceToken"
        static let deviceId = "deviceId"
        static let applicationVersion = "applicationVersion"
        static let applicationBuild = "applicationBuild"
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
            let parsed = try? JSONValue(parsing: text, limits: Self.storedTraitsLimits),
            parsed.objectValue != nil
        {
            traits = parsed
        }
        let userId = values[Key.userId].flatMap { $0.isEmpty ? nil : $0 }
        let token = values[Key.deviceToken].flatMap { $0.isEmpty ? nil : $0 }
        // A stored build, even an empty one, means a launch was recorded: only its absence means a first run.
        let application = values[Key.applicationBuild].map {
            ApplicationRelease(version: values[Key.applicationVersion] ?? "", build: $0)
        }
        return (
            IdentityState(
                anonymousId: anonymousId, userId: userId, traits: traits, deviceToken: token, deviceId: deviceId,
                application: application, unknownEntries: values.filter { !Key.all.contains($0.key) }),
            generated
        )
    }

    /// The bounds on the stored traits text: 1 MiB (an identify event above 32 000 bytes is refused anyway) and
    /// the nesting of untrusted input.
    static let storedTraitsLimits = JSONParsingLimits(
        maximumBytes: 1 << 20, maximumDepth: JSONParsingLimits.defaultMaximumDepth)

    /// The snapshot to persist.
    var snapshot: BinobanKeyValueSnapshot {
        var values = unknownEntries
        values[Key.anonymousId] = anonymousId
        values[Key.deviceId] = deviceId
        if let userId { values[Key.userId] = userId }
        if let deviceToken { values[Key.deviceToken] = deviceToken }
        if traits != [:] { values[Key.traits] = traits.jsonString() }
        if let application {
            values[Key.applicationVersion] = application.version
            values[Key.applicationBuild] = application.build
        }
        return BinobanKeyValueSnapshot(values: values)
    }
}

extension BinobanKeyValueSnapshot {
    /// A snapshot that holds only the release of an earlier launch, as a previous process would have left it
    /// (scenario runners seed a store with it to replay an update).
    package static func recordedApplication(version: String, build: String) -> BinobanKeyValueSnapshot {
        BinobanKeyValueSnapshot(values: [
            IdentityState.Key.applicationVersion: version, IdentityState.Key.applicationBuild: build,
        ])
    }
}
