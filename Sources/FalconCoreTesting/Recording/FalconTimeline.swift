#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Collects what one or more executions emit — callbacks, events, diagnostics, beacons, log lines — in the
/// order they are delivered, with the clock's instant.
///
/// The timeline is a diagnostics delegate, a log sink and a beacon transport at once, and makes the closures
/// to pass to `execute`:
///
/// ```swift
/// let timeline = FalconTimeline(clock: clock)
/// let callbacks = timeline.callbacks()
/// client.execute(attributes: attributes, placement: .overlay, onLoad: callbacks.onLoad, …)
/// client.events(layoutId: "L", handler: timeline.eventHandler())
/// ```
///
/// Beacons are sent from detached tasks, so their position relative to the other entries is not fixed; compare
/// ``entries(excludingBeacons:)`` and ``beaconCodes`` separately.
public final class FalconTimeline: FalconDiagnosticsDelegate, SDKCoreLogHandler, FalconBeaconTransport {
    /// One recorded item.
    public enum Entry: Sendable, Hashable, CustomStringConvertible {
        /// A host callback by name: `onShouldShowLoadingIndicator`, `onLoad`, `onError(placementLoadError)`, …
        case callback(String)
        /// An event delivered to the handler: `placementInteractive`, …
        case event(String)
        /// A diagnostic delivered to the delegate.
        case diagnostic(FalconDiagnosticCode)
        /// A beacon received by the transport.
        case beacon(FalconDiagnosticCode)
        /// A log line.
        case log(SDKCoreLogLevel, FalconDiagnosticCode?)

        /// `callback onLoad`, `event placementCompleted`, `diagnostic webviewHTTPError`, …
        public var description: String {
            switch self {
            case .callback(let name): "callback   \(name)"
            case .event(let name): "event      \(name)"
            case .diagnostic(let code): "diagnostic \(code.rawValue)"
            case .beacon(let code): "beacon     \(code.rawValue)"
            case .log(let level, let code): "log        \(level.rawValue) \(code?.rawValue ?? "-")"
            }
        }
    }

    /// The closures of one execution, all recording into the timeline.
    public struct Callbacks: Sendable {
        /// Records `onLoad`.
        public var onLoad: @Sendable () -> Void
        /// Records `onUnload`.
        public var onUnload: @Sendable () -> Void
        /// Records `onError(<error>)`.
        public var onError: @Sendable (any Error) -> Void
        /// Records `onShouldShowLoadingIndicator`.
        public var onShouldShowLoadingIndicator: @Sendable () -> Void
        /// Records `onShouldHideLoadingIndicator`.
        public var onShouldHideLoadingIndicator: @Sendable () -> Void
    }

    private let recorded = LockedValue([(time: Duration, entry: Entry)]())
    private let recordedBeacons = LockedValue([FalconBeaconRequest]())
    private let clock: (any FalconClock)?
    private let recordsDebugLogs: Bool

    /// Creates a timeline stamping entries with `clock` (zero without one); debug log lines are skipped unless
    /// `recordsDebugLogs`.
    public init(clock: (any FalconClock)? = nil, recordsDebugLogs: Bool = false) {
        self.clock = clock
        self.recordsDebugLogs = recordsDebugLogs
    }

    /// Appends an entry.
    public func record(_ entry: Entry) {
        let time = clock?.now() ?? .zero
        recorded.withLock { $0.append((time, entry)) }
    }

    /// Closures recording each callback.
    public func callbacks() -> Callbacks {
        Callbacks(
            onLoad: { [self] in record(.callback("onLoad")) },
            onUnload: { [self] in record(.callback("onUnload")) },
            onError: { [self] error in record(.callback("onError(\(error))")) },
            onShouldShowLoadingIndicator: { [self] in record(.callback("onShouldShowLoadingIndicator")) },
            onShouldHideLoadingIndicator: { [self] in record(.callback("onShouldHideLoadingIndicator")) }
        )
    }

    /// An events handler recording each event.
    public func eventHandler() -> @Sendable (FalconEvent) -> Void {
        { [self] event in record(.event(event.name)) }
    }

    /// Records the diagnostic.
    public func falconDidEncounter(_ diagnostic: FalconDiagnostic) {
        record(.diagnostic(diagnostic.code))
    }

    /// Records the log line.
    public func log(_ record: SDKCoreLogRecord) {
        guard recordsDebugLogs || record.level != .debug else { return }
        self.record(.log(record.level, record.falconDiagnosticCode))
    }

    /// Records the beacon (decoding its `code`) and answers `204`.
    public func send(_ request: FalconBeaconRequest) async throws -> FalconBeaconResponse {
        recordedBeacons.withLock { $0.append(request) }
        let body = try? JSONDecoder().decode(JSONValue.self, from: request.body)
        if let raw = body?["code"]?.stringValue, let code = FalconDiagnosticCode(rawValue: raw) {
            record(.beacon(code))
        }
        return FalconBeaconResponse(statusCode: 204)
    }

    /// Every entry in delivery order.
    public var entries: [Entry] { recorded.withLock { $0.map(\.entry) } }

    /// Every entry with the instant it was recorded.
    public var timedEntries: [(time: Duration, entry: Entry)] { recorded.withLock { $0 } }

    /// The entries without beacons (whose position is not deterministic).
    public func entries(excludingBeacons: Bool) -> [Entry] {
        entries.filter {
            if excludingBeacons, case .beacon = $0 { return false }
            return true
        }
    }

    /// The codes of the beacons received, in arrival order.
    public var beaconCodes: [FalconDiagnosticCode] {
        entries.compactMap {
            if case .beacon(let code) = $0 { return code }
            return nil
        }
    }

    /// The raw beacon requests received.
    public var beaconRequests: [FalconBeaconRequest] { recordedBeacons.withLock { $0 } }
}
