/// A decoded Binoban conformance scenario: how to build the instance, timed inputs, expected outputs.
///
/// Decode one with ``BinobanScenarioDecoder`` and replay it with ``BinobanScenarioRunner``. The format is
/// described in `Docs/Scenarios.md`.
public struct BinobanScenario: Sendable, Hashable {
    /// The short identifier (by convention the file name without `.json`).
    public var name: String
    /// What the scenario pins down.
    public var description: String
    /// How the instance and its edges are built.
    public var config: Config
    /// The inputs, in time order.
    public var steps: [Step]
    /// The outputs expected, in order; each an object with a `type` and the fields to compare.
    public var expect: [JSONValue]

    /// How the runner builds the instance.
    public struct Config: Sendable, Hashable {
        /// `Configuration.apiKey`. Default `"KEY"`.
        public var apiKey = "KEY"
        /// `Configuration.sourceIdentifier`. Default `"SOURCE"`.
        public var sourceIdentifier = "SOURCE"
        /// `Configuration.apiHost`. Default `"api.binoban.io"`; blank gives a disabled instance.
        public var apiHost = "api.binoban.io"
        /// `Configuration.flushAt`. Default 20.
        public var flushAt = 20
        /// `Configuration.flushInterval` in seconds. Default 30.
        public var flushInterval: Double = 30
        /// `Configuration.uploadMaxRetries`. Default 3.
        public var uploadMaxRetries = 3
        /// `Configuration.backoffBase`, in milliseconds. Default 1000.
        public var backoffBaseMillis = 1000
        /// `Configuration.backoffMax`, in milliseconds. Default 60 000.
        public var backoffMaxMillis = 60_000
        /// `Configuration.maxFilesPerFlush`. Default 20.
        public var maxFilesPerFlush = 20
        /// The storage's largest event in bytes. Default 32 000.
        public var maxEventBytes = 32_000
        /// The storage's batch cap (`BinobanStorageLimits.maxFinishedBatches`). Default 20, the mobile SDK's.
        public var maxFinishedBatches = 20
        /// The storage's byte cap (`BinobanStorageLimits.maxTotalBytes`). Default 5 000 000, the mobile SDK's.
        public var maxTotalBytes = 5_000_000
        /// `Configuration.retryAfterLimit` in milliseconds. Default 600 000.
        public var retryAfterLimitMillis: Int64 = 600_000
        /// `Configuration.maxConcurrentUploads`. Default 1 (the mobile SDK's: one request at a time, so the order
        /// of requests is part of the expectation).
        public var maxConcurrentUploads = 1
        /// `Configuration.backpressure`: `"dropOldest"` (default), `"dropNewest"` or `"wait"`.
        public var backpressure: BinobanBackpressure = .dropOldest
        /// `Configuration.writeStageCapacity`. Default 1000 (the mobile SDK's).
        public var writeStageCapacity = 1000
        /// Wall clock at virtual time 0, in milliseconds since 1970. Default 2026-08-02T12:00:00.000Z.
        public var wallClockStartMs: Int64 = 1_785_672_000_000
        /// Random draws in `0..<1` replayed in a loop (for exact jitter); `nil` uses sequential identifiers.
        public var randomUnitValues: [Double]?
        /// The transport's answers in order: a status, `{"status":…,"headers":{…}}` or `"networkError"`.
        public var transportScript: [TransportAnswer] = []
        /// The answer once the script is used up. Default 200.
        public var transportDefault: TransportAnswer = .status(200, headers: [:])
        /// The notification layer the runner creates beside the instance.
        public var notifications = Notifications()
        /// `Configuration.compressesUploads`. Default `false`; the recorded requests' events are decoded from
        /// the gzip body either way.
        public var compressesUploads = false
        /// `Configuration.allowsCleartextHost`. Default `false`.
        public var allowsCleartextHost = false
        /// `Configuration.stages`, in order: declarative before-send stages. Default none.
        public var stages: [Stage] = []
        /// `Configuration.trackApplicationLifecycleEvents`. Default `true`.
        public var trackApplicationLifecycleEvents = true
        /// The version and build an earlier launch left in the key-value store; `nil` (the default) for a
        /// first run.
        public var storedApplication: StoredApplication?

        /// Creates the default configuration.
        public init() {}
    }

    /// A before-send stage a scenario file can declare (host code cannot be written in JSON, so these two
    /// stand for the common shapes: consent gating and redaction).
    public enum Stage: Sendable, Hashable {
        /// Drops every event whose name is `event` (track, page and screen names), giving `reason`.
        case drop(event: String, reason: String)
        /// Removes the member `key` from every event's properties or traits.
        case removeProperty(String)
    }

    /// How the runner builds the scenario's own `BinobanNotifications` (never `BinobanNotifications.shared`).
    public struct Notifications: Sendable, Hashable {
        /// Whether the layer is attached to the instance before the first step. Default `true`; with `false`,
        /// tokens and events wait for an `attachNotifications` input.
        public var attached = true
        /// What the scripted presenter answers to every display request. Default ``BinobanScenario/DisplayAnswer/displayed``.
        public var display: DisplayAnswer = .displayed
        /// What the scripted presenter answers to a permission request. Default `.granted`.
        public var permission: NotificationPermissionResult.Status = .granted
        /// `BinobanNotifications.Options.replayCapacity`. Default 16.
        public var replayCapacity = BinobanNotifications.Options().replayCapacity
        /// `BinobanNotifications.Options.deliveredMemory`. Default 256.
        public var deliveredMemory = BinobanNotifications.Options().deliveredMemory
        /// `BinobanNotifications.Options.pendingEventCapacity`. Default 32.
        public var pendingEventCapacity = BinobanNotifications.Options().pendingEventCapacity

        /// Creates the default notification layer settings.
        public init() {}
    }

    /// The application version and build recorded by an earlier launch, seeded into the key-value store.
    public struct StoredApplication: Sendable, Hashable {
        /// The recorded version.
        public var version: String
        /// The recorded build.
        public var build: String

        /// Creates a recorded release.
        public init(version: String, build: String) {
            self.version = version
            self.build = build
        }
    }

    /// What the scripted notification presenter answers to a display request.
    public enum DisplayAnswer: Sendable, Hashable {
        /// The notification is shown.
        case displayed
        /// Nothing was shown, for `reason`.
        case notDisplayed(reason: String)
        /// The display failed for `reason` (the SDK then dispatches a `FAILED` interaction).
        case failed(reason: String)
    }

    /// One scripted transport answer.
    public enum TransportAnswer: Sendable, Hashable {
        /// An HTTP answer.
        case status(Int, headers: [String: String])
        /// No answer (the transport throws).
        case networkError
    }

    /// A server call of a scenario step: the call, its arguments, its identity and its message fields.
    public struct ServerCall: Sendable, Hashable {
        /// Which server call.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            case track, identify, page, screen, group, alias
        }

        /// Which server call.
        public var kind: Kind
        /// The event name (track) or the page or screen name.
        public var name: String?
        /// The page or screen category.
        public var category: String?
        /// `properties` (track, page, screen) or `traits` (identify, group).
        public var payload: JSONValue
        /// The per-call identity (alias: its `userId` is the alias's).
        public var identity: BinobanEventIdentity
        /// The group's id (group).
        public var groupId: String?
        /// The alias's previous id (alias).
        public var previousId: String?
        /// The per-call message fields.
        public var fields: BinobanMessageFields
        /// Made through `server.awaitingDelivery`: its outcome is an `eventOutcome` output at the step that
        /// decides it. Default `false`.
        public var awaitsOutcome = false

        /// Creates a server call.
        public init(
            kind: Kind, name: String? = nil, category: String? = nil, payload: JSONValue = [:],
            identity: BinobanEventIdentity = BinobanEventIdentity(), groupId: String? = nil,
            previousId: String? = nil, fields: BinobanMessageFields = BinobanMessageFields()
        ) {
            self.kind = kind
            self.name = name
            self.category = category
            self.payload = payload
            self.identity = identity
            self.groupId = groupId
            self.previousId = previousId
            self.fields = fields
        }
    }

    /// One input at a virtual time.
    public struct Step: Sendable, Hashable {
        /// Virtual milliseconds since the start.
        public var at: Int64
        /// What happens.
        public var input: Input

        /// Creates a step.
        public init(at: Int64, input: Input) {
            self.at = at
            self.input = input
        }
    }

    /// The inputs a scenario can give.
    public enum Input: Sendable, Hashable {
        /// `track(name:properties:)`, or with a per-event identity when `identity` is set.
        case track(name: String, properties: JSONValue, identity: BinobanEventIdentity?)
        /// `identify(userId:traits:)`.
        case identify(userId: String, traits: JSONValue)
        /// `screen(title:properties:)`.
        case screen(title: String, properties: JSONValue)
        /// One of the server calls (`binoban.server.track`, `.identify`, `.page`, `.screen`, `.group`,
        /// `.alias`), with its per-call identity and message fields.
        case server(ServerCall)
        /// `reset()`.
        case reset
        /// `setDeviceToken(token:)`.
        case setDeviceToken(String)
        /// `flushAt = value`.
        case setFlushAt(Int)
        /// `flushInterval = seconds`.
        case setFlushInterval(Double)
        /// `enabled = value`.
        case setEnabled(Bool)
        /// The non-waiting `flush()`.
        case flush
        /// Starts an awaited flush; its `flushResult` output is recorded at the virtual instant it resolves.
        case flushAwait
        /// Lets virtual time run, from one pipeline deadline to the next, until every started awaited flush (and
        /// awaited server call) has resolved. Later steps then happen at their own `at` (which must not be earlier than now).
        case awaitFlush
        /// Only the passage of time up to the step's `at`.
        case advance
        /// `BinobanNotifications.initializeNotifications(configuration:)`, awaiting the permission answer.
        case initializeNotifications(askPermission: Bool, soundName: String?)
        /// `BinobanNotifications.onNewToken(token:)`.
        case onNewToken(String)
        /// `BinobanNotifications.onApplicationDidReceiveRemoteNotification(userInfo:)`, awaiting the display.
        case onApplicationDidReceiveRemoteNotification(userInfo: JSONValue)
        /// `BinobanNotifications.onWillPresentForwarded(userInfo:)`.
        case onWillPresentForwarded(userInfo: JSONValue)
        /// `BinobanNotifications.onDidReceiveForwarded(userInfo:actionId:dismissed:)`.
        case onDidReceiveForwarded(userInfo: JSONValue, actionId: String?, dismissed: Bool)
        /// `BinobanNotifications.onNotificationOpened(userInfo:)`.
        case onNotificationOpened(userInfo: JSONValue)
        /// `BinobanNotifications.attach(_:)` with the scenario's instance.
        case attachNotifications
        /// `BinobanNotifications.detach()`.
        case detachNotifications
        /// Installs an app interaction handler that records an `interaction` output for each interaction and,
        /// when `callsSuper`, keeps the SDK's tracking (a `DefaultNotificationInteractionHandler` subclass).
        case setInteractionHandler(callsSuper: Bool)
        /// `NotificationInteractionManager.resetToDefault()`.
        case resetInteractionHandler
        /// `NotificationInteractionManager.drainPendingInteractions()`, recorded as a `drained` output.
        case drainPendingInteractions
        /// `applicationDidFinishLaunching(version:build:)`.
        case applicationDidFinishLaunching(version: String, build: String)
        /// `applicationWillEnterForeground()`.
        case applicationWillEnterForeground
        /// `applicationDidEnterBackground()`.
        case applicationDidEnterBackground
    }

    /// Creates a scenario.
    public init(name: String, description: String, config: Config, steps: [Step], expect: [JSONValue]) {
        self.name = name
        self.description = description
        self.config = config
        self.steps = steps
        self.expect = expect
    }
}
