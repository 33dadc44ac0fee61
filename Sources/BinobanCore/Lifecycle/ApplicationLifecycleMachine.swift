/// Decides what a lifecycle input produces: the events, the release to persist, the flush.
///
/// A value type without clocks, I/O or threads; ``ApplicationLifecycleTracker`` owns one and performs its
/// actions. Rules (after the mobile SDKs' lifecycle plugins, with their duplicate-event bugs fixed):
/// - The first launch of an instance compares the reported build with the persisted one: none stored gives
///   `Application Installed`, a different one `Application Updated`; then `Application Opened` with
///   `from_background: false`. Later launches of the same instance are ignored.
/// - Entering the background flushes (always) and, when it is not already in the background,
///   tracks `Application Backgrounded`.
/// - Entering the foreground after a background tracks `Application Opened` with `from_background: true`;
///   without a background before it nothing happens.
/// - With `tracksEvents == false` no event is produced, but the release is still persisted and the
///   background flush still happens.
struct ApplicationLifecycleMachine: Sendable {
    /// What the owner performs, in order.
    enum Action: Sendable, Hashable {
        /// Persist this release beside the identity.
        case record(ApplicationRelease)
        /// Track an event through the normal path.
        case track(name: String, properties: JSONValue)
        /// Ask for a non-waiting flush.
        case flush
        /// Report a problem with the host's input (the input is still used).
        case reportInput(String)
    }

    /// The event names, as the mobile SDKs spell them.
    enum EventName {
        static let installed = "Application Installed"
        static let updated = "Application Updated"
        static let opened = "Application Opened"
        static let backgrounded = "Application Backgrounded"
    }

    /// Whether lifecycle events are produced (`Configuration.trackApplicationLifecycleEvents`).
    let tracksEvents: Bool
    /// The release persisted by an earlier launch (or this one), `nil` when none was ever recorded.
    private(set) var stored: ApplicationRelease?
    /// The release this instance's launch reported, `nil` before the launch.
    private(set) var current: ApplicationRelease?
    /// Whether the launch was handled (once per instance).
    private(set) var launched = false
    /// Whether the last transition was into the background.
    private(set) var inBackground = false

    /// A machine for an instance whose store held `stored`.
    init(tracksEvents: Bool, stored: ApplicationRelease?) {
        self.tracksEvents = tracksEvents
        self.stored = stored
    }

    /// Handles one input and returns the actions to perform, in order.
    mutating func handle(_ input: ApplicationLifecycleInput) -> [Action] {
        switch input {
        case .didFinishLaunching(let version, let build):
            return launch(ApplicationRelease(version: version, build: build))
        case .willEnterForeground:
            guard inBackground else { return [] }
            inBackground = false
            guard tracksEvents else { return [] }
            var properties: [String: JSONValue] = ["from_background": true]
            if let current {
                properties["version"] = .string(current.version)
                properties["build"] = .string(current.build)
            }
            return [.track(name: EventName.opened, properties: .object(properties))]
        case .didEnterBackground:
            var actions: [Action] = []
            if !inBackground {
                inBackground = true
                if tracksEvents { actions.append(.track(name: EventName.backgrounded, properties: [:])) }
            }
            actions.append(.flush)
            return actions
        }
    }

    private mutating func launch(_ release: ApplicationRelease) -> [Action] {
        guard !launched else { return [] }
        launched = true
        inBackground = false
        current = release
        var actions: [Action] = []
        let blank = [("version", release.version), ("build", release.build)].filter { $0.1.isEmpty }.map(\.0)
        if !blank.isEmpty {
            actions.append(
                .reportInput(
                    "applicationDidFinishLaunching: the \(blank.joined(separator: " and ")) is blank; it is sent "
                        + "and stored as an empty string (updates are detected by build)"
                )
            )
        }
        let previous = stored
        if previous != release {
            actions.append(.record(release))
            stored = release
        }
        guard tracksEvents else { return actions }
        let versionAndBuild: [String: JSONValue] = [
            "version": .string(release.version), "build": .string(release.build),
        ]
        if let previous {
            if previous.build != release.build {
                var properties = versionAndBuild
                properties["previous_version"] = .string(previous.version)
                properties["previous_build"] = .string(previous.build)
                actions.append(.track(name: EventName.updated, properties: .object(properties)))
            }
        } else {
            actions.append(.track(name: EventName.installed, properties: .object(versionAndBuild)))
        }
        var opened = versionAndBuild
        opened["from_background"] = false
        actions.append(.track(name: EventName.opened, properties: .object(opened)))
        return actions
    }
}
