/// One Falcon conformance scenario: the rig configuration, timed inputs and the outputs expected in order.
///
/// Scenarios are JSON files (`Docs/Scenarios.md` describes the format); ``FalconScenarioDecoder`` reads them
/// and ``FalconScenarioRunner`` replays them on a manual clock:
///
/// ```swift
/// let scenario = try FalconScenarioDecoder.decode(data)
/// let result = await FalconScenarioRunner.run(scenario)
/// if !result.passed { print(result.report) }
/// ```
public struct FalconScenario: Sendable, Hashable {
    /// The format version this kit reads.
    public static let formatVersion = 1
    /// The `core` value of Falcon scenarios.
    public static let core = "falcon"

    /// A short identifier, usually the file name without `.json`.
    public var name: String
    /// What the scenario checks, in one or two sentences.
    public var description: String
    /// How the test rig is built.
    public var configuration: Configuration
    /// The inputs, in time order.
    public var steps: [Step]
    /// The outputs expected, in the order the host observes them.
    public var expectations: [FalconScenarioExpectation]

    /// Creates a scenario.
    public init(
        name: String,
        description: String,
        configuration: Configuration = Configuration(),
        steps: [Step],
        expectations: [FalconScenarioExpectation]
    ) {
        self.name = name
        self.description = description
        self.configuration = configuration
        self.steps = steps
        self.expectations = expectations
    }

    /// The rig: session ids, load timeout, beacon platform, overlay presenter and wall clock.
    public struct Configuration: Sendable, Hashable {
        /// Session ids: the fixed `sessionId`, or `<sessionIdPrefix>-1`, `-2`, … per execute.
        public var sessionId: String?
        /// The prefix of sequential session ids (`session` by default).
        public var sessionIdPrefix: String
        /// The client's load timeout (15 s by default).
        public var loadTimeout: Duration
        /// The beacons' `platform` value (`test` by default).
        public var platform: String
        /// Whether the overlay presenter finds somewhere to present (`true` by default).
        public var presenterAvailable: Bool
        /// Whether a requested overlay dismissal completes at once (`true`) or on a `completeDismissal` input.
        public var dismissesImmediately: Bool
        /// A visible fraction the presenter reports right after presenting, or `nil` for none.
        public var overlayVisibility: Double?
        /// Wall-clock milliseconds since 1970 at virtual time zero (2026-07-08T12:00:00Z by default).
        public var wallClockStartMilliseconds: Int64

        /// Creates a configuration with the documented defaults.
        public init(
            sessionId: String? = nil,
            sessionIdPrefix: String = "session",
            loadTimeout: Duration = .seconds(15),
            platform: String = "test",
            presenterAvailable: Bool = true,
            dismissesImmediately: Bool = true,
            overlayVisibility: Double? = nil,
            wallClockStartMilliseconds: Int64 = 1_783_512_000_000
        ) {
            self.sessionId = sessionId
            self.sessionIdPrefix = sessionIdPrefix
            self.loadTimeout = loadTimeout
            self.platform = platform
            self.presenterAvailable = presenterAvailable
            self.dismissesImmediately = dismissesImmediately
            self.overlayVisibility = overlayVisibility
            self.wallClockStartMilliseconds = wallClockStartMilliseconds
        }
    }

    /// One input at a virtual instant.
    public struct Step: Sendable, Hashable {
        /// Milliseconds of virtual time since the start of the scenario.
        public var at: Int64
        /// What happens.
        public var input: Input

        /// Creates a step.
        public init(at: Int64, _ input: Input) {
            self.at = at
            self.input = input
        }
    }

    /// Where an execution renders.
    public enum Placement: Sendable, Hashable {
        /// An inline surface with this name (reports name it in `surface`).
        case inline(surface: String)
        /// An overlay; its content renderer is the surface named `overlay`.
        case overlay
    }

    /// The `execute` input.
    public struct Execute: Sendable, Hashable {
        /// The attributes dictionary.
        public var attributes: JSONValue
        /// Inline (with a surface name) or overlay.
        public var placement: Placement
        /// Optional style overrides.
        public var style: FalconStyle?
        /// `isSandbox`.
        public var isSandbox: Bool

        /// Creates an execute input.
        public init(attributes: JSONValue, placement: Placement, style: FalconStyle? = nil, isSandbox: Bool = false) {
            self.attributes = attributes
            self.placement = placement
            self.style = style
            self.isSandbox = isSandbox
        }
    }

    /// A bridge message as the web content posts it.
    public enum BridgeMessage: Sendable, Hashable {
        /// Any JSON value, delivered as the iOS bridge delivers a dictionary.
        case value(JSONValue)
        /// A JSON string, delivered as the Android bridge delivers it.
        case json(String)
    }

    /// Everything a scenario can do to the SDK.
    public enum Input: Sendable, Hashable {
        /// `initSdk(apiKey:config:)`.
        case initSdk(apiKey: String, config: FalconConfig)
        /// `execute(…)`; executions are numbered 1, 2, … in file order.
        case execute(Execute)
        /// The renderer of `surface` reports a navigation response (`navigationID` `nil`: the last load's).
        case navigationResponse(surface: String, navigationID: Int?, isMainFrame: Bool, status: Int?)
        /// The renderer of `surface` reports a finished navigation.
        case navigationFinished(surface: String, navigationID: Int?)
        /// The renderer of `surface` reports a failed (or cancelled) navigation.
        case navigationFailed(
            surface: String,
            navigationID: Int?,
            phase: FalconNavigationPhase,
            isCancelled: Bool,
            errorCode: Int?
        )
        /// The web content in `surface` posts a bridge message.
        case bridge(surface: String, message: BridgeMessage)
        /// The visible fraction of `surface`.
        case visibility(surface: String, fraction: Double)
        /// A user touch on `surface`.
        case touch(surface: String)
        /// The web content process of `surface` terminates.
        case terminate(surface: String)
        /// The host removes `surface`.
        case hostTeardown(surface: String)
        /// The presenter finishes a dismissal it was asked for (with `"dismissal": "manual"`).
        case completeDismissal
        /// The modal is dismissed without the SDK asking.
        case dismissExternally
        /// From now on the presenter finds somewhere to present (`true`) or not.
        case presenterAvailability(Bool)
        /// Registers a recording events handler for `layoutId`.
        case events(layoutId: String)
        /// `removeEventsHandler(layoutId:)`.
        case removeEventsHandler(layoutId: String)
        /// Nothing but the passage of time up to the step's `at`.
        case advance
    }
}
