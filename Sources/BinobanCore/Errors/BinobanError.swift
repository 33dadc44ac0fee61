/// A problem the SDK reports to ``Configuration/errorHandler``.
///
/// Reports never carry the API key, event properties or traits: the ``message`` names what happened and
/// where, never a value the host passed in.
public struct BinobanError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is. Reports are rate-limited per kind.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The stable name of the kind, such as `invalidConfiguration`.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// The configuration was unusable; the instance is disabled and every call is a no-op.
        public static let invalidConfiguration = Kind("invalidConfiguration")
        /// A configuration value was corrected (a clamped threshold, a normalised host).
        public static let configurationAdjusted = Kind("configurationAdjusted")
        /// A `[String: Any]` value could not be carried into JSON; the member was dropped or nulled.
        public static let propertyConversion = Kind("propertyConversion")
        /// Events were dropped because the bounded write stage was full (oldest first); ``BinobanError/eventCount``
        /// says how many.
        public static let writeStageOverflow = Kind("writeStageOverflow")
        /// Events were refused because their encoded JSON is 32 000 bytes or more; ``BinobanError/eventCount``
        /// says how many.
        public static let oversizeEvent = Kind("oversizeEvent")
        /// Stored batches were dropped (oldest first) to respect the storage caps; ``BinobanError/eventCount``
        /// says how many events they held.
        public static let storageEviction = Kind("storageEviction")
        /// Events were refused because the storage is full and the backpressure policy is drop-newest;
        /// ``BinobanError/eventCount`` says how many.
        public static let storageFull = Kind("storageFull")
        /// Events were tracked while the instance was paused (`enabled == false`) and were dropped, as the iOS
        /// and Kotlin SDKs drop them; ``BinobanError/eventCount`` says how many.
        public static let pausedDrop = Kind("pausedDrop")
        /// Stored events were older than ``Configuration/maxEventAge`` when their batch was read for upload and
        /// were dropped; ``BinobanError/eventCount`` says how many.
        public static let expiredEvent = Kind("expiredEvent")
        /// The storage failed or could not be opened; see the message for the fallback taken.
        public static let storage = Kind("storage")
        /// The identity could not be read or persisted.
        public static let keyValueStore = Kind("keyValueStore")
        /// The server rejected a batch with a 4xx status other than 429; the batch was dropped.
        public static let batchRejected = Kind("batchRejected")
        /// An upload failed transiently (429, 5xx, 3xx or no answer) after every retry; the batch was kept.
        public static let uploadFailed = Kind("uploadFailed")
        /// No event transport is configured, so nothing can be uploaded; batches are kept.
        public static let transportMissing = Kind("transportMissing")
        /// ``Binoban/run()`` was called while it was already running.
        public static let alreadyRunning = Kind("alreadyRunning")

        /// The kind's name.
        public var description: String { name }
    }

    /// How serious a report is.
    public enum Severity: String, Sendable, Hashable {
        /// Nothing failed, but the configuration probably is not what was meant: a missing transport, an adjusted
        /// value.
        case warning
        /// Something failed or was dropped.
        case error
    }

    /// The kind of problem.
    public var kind: Kind
    /// The report's severity, which follows from its kind: ``Kind/transportMissing`` and
    /// ``Kind/configurationAdjusted`` are warnings, every other kind an error.
    public var severity: Severity {
        kind == .transportMissing || kind == .configurationAdjusted ? .warning : .error
    }
    /// A value-free, human-readable explanation.
    public var message: String
    /// The number of events the report is about: the dropped events for the drop kinds (``Kind/writeStageOverflow``,
    /// ``Kind/oversizeEvent``, ``Kind/storageEviction``, ``Kind/storageFull``, ``Kind/pausedDrop``,
    /// ``Kind/expiredEvent``), `0` when the report is not about events.
    ///
    /// A report that folds in reports the rate limit suppressed carries the sum of their event counts as well, so
    /// adding up `eventCount` over every delivered report gives every event reported, none lost to the limit.
    public var eventCount: Int
    /// How many reports of this kind the rate limit suppressed and folded into this one.
    public var suppressedCount: Int
    /// Why the upload the report is about got no HTTP answer (refused, reset, TLS handshake, certificate, timeout,
    /// DNS, …), as the transport said; `nil` when the report is not about a request without an answer. Set on the
    /// ``Kind/uploadFailed`` reports "got no answer" and "still failed (no answer: …)"; a summary of suppressed
    /// reports carries the last one's.
    public var transportFailure: BinobanTransportFailure?

    /// Creates a report.
    public init(kind: Kind, message: String, eventCount: Int = 0, suppressedCount: Int = 0) {
        self.kind = kind
        self.message = message
        self.eventCount = eventCount
        self.suppressedCount = suppressedCount
    }

    /// Creates a report about a request without an answer, with the transport's reason.
    public init(
        kind: Kind, message: String, eventCount: Int = 0, suppressedCount: Int = 0,
        transportFailure: BinobanTransportFailure?
    ) {
        self.init(kind: kind, message: message, eventCount: eventCount, suppressedCount: suppressedCount)
        self.transportFailure = transportFailure
    }

    /// `kind: message`, with the event count and the number of suppressed reports when there were any.
    public var description: String {
        var notes: [String] = []
        if eventCount > 0 { notes.append(eventCount == 1 ? "1 event" : "\(eventCount) events") }
        if suppressedCount > 0 { notes.append("\(suppressedCount) similar reports suppressed") }
        return notes.isEmpty ? "\(kind): \(message)" : "\(kind): \(message) (\(notes.joined(separator: ", ")))"
    }
}
