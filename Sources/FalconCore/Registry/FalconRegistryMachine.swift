#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Every execution of one client as a value type: which executions exist, which surface and overlay slot each
/// holds, when the next one must be woken, and whether a diagnostic becomes a beacon.
///
/// The rules it decides (each one in one place):
/// - **Overlay slot.** One overlay execution at a time: an overlay execute whose preflight passed while another
///   overlay is active starts as ``FalconExecutionStateMachine/Preflight/overlayAlreadyActive``. The slot is
///   freed when its execution finishes.
/// - **Supersede.** A new execute on the same live inline surface supersedes the previous execution (its
///   `superseded` input is queued before the new `start`). An identifier is an address, and a released surface's
///   address can be reused by the next one: the previous execution is superseded only while its own surface is
///   still that object; otherwise it meets its released surface at its next input like any other.
/// - **Released surfaces.** An inline execution whose surface is gone is fed `surfaceReleased` instead of its
///   input (the host let it go without a teardown).
/// - **Deadlines.** Each execution's timers are deadlines kept here, not timer handles: ``nextDeadline`` says
///   when the driver must next call ``expire(at:into:)`` (quinn-proto's `poll_timeout` / `handle_timeout`),
///   which turns every deadline due by then into that execution's `timerFired` input. A cancelled or finished
///   execution's deadlines leave at once, so a late wake-up finds nothing.
/// - **Beacon policy.** A diagnostic becomes a beacon when beacons are enabled with an `http(s)` target, the
///   execution was started after `initSdk` and the code is not `initNotCalled`; without a beacon transport it is
///   dropped and counted, with a warning the first time (``Step/beacon``).
///
/// The machine does no I/O and reads no clock: instants come in with each input, and the driver performs the
/// execution's actions and the step's decisions in order.
package struct FalconRegistryMachine: Sendable {
    /// Where one execution renders, as the registry keys it.
    package enum SurfaceKey: Sendable {
        /// A host surface, by identity (held weakly by the execution's context).
        case inline(ObjectIdentifier)
        /// The overlay presenter's modal.
        case overlay
    }

    /// What the driver does with a step's diagnostic, decided by the beacon policy.
    package enum BeaconDecision: Sendable, Equatable {
        /// No beacon: disabled, no `http(s)` target, not initialized, `initNotCalled`, or no diagnostic.
        case none
        /// Send the diagnostic as a beacon to this URL.
        case send(URL)
        /// Dropped for want of a beacon transport (counted); `firstOfClient` asks for the one-time warning.
        case dropped(firstOfClient: Bool)
    }

    /// One handled input, as the driver performs it (its actions are in the caller's buffer).
    package struct Step: Sendable {
        /// The execution the input was for.
        package var id: UInt64
        /// What performing the actions needs; `nil` when the execution had already ended (no effect).
        package var delivery: FalconExecutionDelivery?
        /// Whether the input was a bridge message that decoded to nothing (the driver logs it at debug level).
        package var ignoredBridgeMessage = false
        /// The beacon policy's answer for the step's diagnostic (a step raises at most one).
        package var beacon = BeaconDecision.none
    }

    /// A deadline's owner: the execution, its timer, and the generation the machine armed it with.
    struct Wake: Sendable {
        let id: UInt64
        let timer: FalconExecutionStateMachine.Timer
        let generation: Int
    }

    /// One execution as the registry keeps it.
    struct Entry: Sendable {
        var machine: FalconExecutionStateMachine
        /// The overlay's content renderer, from the presenter.
        var overlayRenderer: FalconExecutionContext.OverlayRenderer?
        let context: FalconExecutionContext
        var loadTimeout: FalconDeadlineHeap<Wake>.ID?
        var dwell: FalconDeadlineHeap<Wake>.ID?
    }

    /// Where `config` sends beacons: `nil` when they are disabled or the URL is not `http(s)`.
    package private(set) var beaconTarget: URL?
    /// Whether the client has a beacon transport (fixed at creation).
    private let hasBeaconTransport: Bool
    private var warnedMissingTransport = false
    private var executions: [UInt64: Entry] = [:]
    private var surfaces: [ObjectIdentifier: UInt64] = [:]
    private var activeOverlay: UInt64?
    private var nextExecutionID: UInt64 = 0
    private var deadlines = FalconDeadlineHeap<Wake>()
    /// Cumulative counts since the client was created, counted at the transition.
    package private(set) var statistics = FalconStatistics()

    /// Creates an empty registry for a client with or without a beacon transport.
    package init(hasBeaconTransport: Bool) {
        self.hasBeaconTransport = hasBeaconTransport
    }

    /// How many executions have not reached a terminal state.
    package var activeExecutionCount: Int { executions.count }

    /// The earliest instant at which ``expire(at:into:)`` has work (`poll_timeout`); `nil` when none is pending.
    package var nextDeadline: Duration? { deadlines.earliestDeadline }

    // MARK: Configuration

    /// Takes a new configuration's beacon settings (derived once here rather than at every execute).
    package mutating func configure(_ config: FalconConfig) {
        beaconTarget =
            config.diagnosticBeaconsEnabled
            ? Self.beaconTarget(config.diagnosticsURL ?? FalconConfig.defaultDiagnosticsURL) : nil
    }

    /// `url` when its scheme is `http` or `https`, else `nil` (such beacons are dropped).
    package static func beaconTarget(_ url: URL) -> URL? {
        let scheme = (url.scheme ?? "").lowercased()
        return scheme == "http" || scheme == "https" ? url : nil
    }

    /// Whether `config`'s base URL can carry the API key (`https`, or `http` on a loopback host; a host, no query
    /// or fragment). A refused one makes every execute fail with `urlConstructionFailed`.
    package static func acceptsBaseURL(of config: FalconConfig) -> Bool {
        FalconWebviewURLBuilder.webviewBase(config.baseURL.absoluteString) != nil
    }

    // MARK: Executions

    /// Registers a new execution and queues its inputs on `inbox`: the previous execution's `superseded` (when
    /// the same live surface had one), then the new execution's `start`. Returns the new execution's id.
    ///
    /// `preflight` is the outcome of the checks that need no registry state; the overlay slot is checked here.
    /// `initialized` says whether `initSdk` had been called (no beacon otherwise).
    package mutating func register(
        _ surface: SurfaceKey,
        preflight: FalconExecutionStateMachine.Preflight,
        loadTimeout: Duration,
        initialized: Bool,
        makeContext: (UInt64, URL?) -> FalconExecutionContext,
        into inbox: inout FalconInbox
    ) -> UInt64 {
        nextExecutionID += 1
        let id = nextExecutionID
        var preflight = preflight
        let context = makeContext(id, initialized ? beaconTarget : nil)
        switch surface {
        case .overlay:
            if case .ready = preflight {
                if activeOverlay != nil {
                    preflight = .overlayAlreadyActive
                } else {
                    activeOverlay = id
                }
            }
        case .inline(let surfaceID):
            if let previous = surfaces[surfaceID], let previousSurface = executions[previous]?.context.inlineSurface,
                previousSurface === context.inlineSurface
            {
                inbox.append(previous, .superseded)
            }
            surfaces[surfaceID] = id
        }
        let kind: FalconExecutionStateMachine.Surface = context.rendersInline ? .inline : .overlay
        executions[id] = Entry(
            machine: FalconExecutionStateMachine(surface: kind, loadTimeout: loadTimeout), context: context)
        inbox.append(id, .start(preflight))
        statistics.count(.executionStarted)
        return id
    }

    /// Keeps the overlay presenter's content renderer for execution `id` (the first one reported wins).
    package mutating func overlayPresented(_ id: UInt64, renderer: any FalconRenderer) {
        guard let index = executions.index(forKey: id), executions.values[index].overlayRenderer == nil else {
            return
        }
        executions.values[index].overlayRenderer = FalconExecutionContext.OverlayRenderer(renderer)
    }

    /// Feeds `input` to execution `id` at `now`, its actions appended to `actions`, and applies the registry's
    /// rules to them: statistics, deadlines armed and cancelled, the slot and surface freed at `finished`, the
    /// beacon policy for a diagnostic.
    package mutating func step(
        _ input: FalconExecutionStateMachine.Input, of id: UInt64, at now: Duration,
        appendingTo actions: inout [FalconExecutionStateMachine.Action]
    ) -> Step {
        guard let index = executions.index(forKey: id) else {
            return Step(id: id, ignoredBridgeMessage: input.isIgnoredBridgeMessage)
        }
        // The execution is stepped in place (one mutating access, no copy of it); the input is borrowed, never
        // copied (it may hold a `URL`).
        var step: Step
        let context = executions.values[index].context
        let delivery = FalconExecutionDelivery(
            context: context, overlayRenderer: executions.values[index].overlayRenderer)
        if context.rendersInline, context.inlineSurface == nil {
            executions.values[index].machine.handle(.surfaceReleased, at: now, appendingTo: &actions)
            step = Step(id: id, delivery: delivery)
        } else {
            executions.values[index].machine.handle(input, at: now, appendingTo: &actions)
            step = Step(id: id, delivery: delivery, ignoredBridgeMessage: input.isIgnoredBridgeMessage)
        }
        var finished = false
        for action in actions {
            if let occurrence = FalconMetrics.occurrence(for: action) { statistics.count(occurrence) }
            switch action {
            case .armTimer(let timer, let deadline, let generation):
                let wake = deadlines.insert(Wake(id: id, timer: timer, generation: generation), deadline: deadline)
                if let replaced = executions.values[index].replaceDeadline(of: timer, with: wake) {
                    deadlines.remove(replaced)
                }
            case .cancelTimer(let timer):
                if let cancelled = executions.values[index].replaceDeadline(of: timer, with: nil) {
                    deadlines.remove(cancelled)
                }
            case .diagnose(let code, _):
                step.beacon = beaconDecision(code, target: context.beaconTarget)
            case .finished:
                finished = true
            default:
                break
            }
        }
        if finished { remove(at: index, id: id) }
        return step
    }

    /// Queues on `inbox` the `timerFired` input of every deadline due by `now` (`handle_timeout`), earliest
    /// first (ties in the order they were armed).
    package mutating func expire(at now: Duration, into inbox: inout FalconInbox) {
        while let wake = deadlines.popEarliest(dueBy: now) {
            if let index = executions.index(forKey: wake.id) {
                _ = executions.values[index].replaceDeadline(of: wake.timer, with: nil)
            }
            inbox.append(wake.id, .timerFired(wake.timer, generation: wake.generation))
        }
    }

    /// Takes a beacon transport's answer into the statistics.
    mutating func count(_ occurrence: FalconMetrics.Occurrence) {
        statistics.count(occurrence)
    }

    private mutating func beaconDecision(_ code: FalconDiagnosticCode, target: URL?) -> BeaconDecision {
        guard code != .initNotCalled, let target else { return .none }
        guard hasBeaconTransport else {
            statistics.count(.beaconDropped)
            defer { warnedMissingTransport = true }
            return .dropped(firstOfClient: !warnedMissingTransport)
        }
        return .send(target)
    }

    private mutating func remove(at index: Dictionary<UInt64, Entry>.Index, id: UInt64) {
        let entry = executions.remove(at: index).value
        // The machine cancels its timers before it finishes; whatever is left goes here, so no deadline outlives
        // its execution.
        if let load = entry.loadTimeout { deadlines.remove(load) }
        if let dwell = entry.dwell { deadlines.remove(dwell) }
        if let surfaceID = entry.context.surfaceID, surfaces[surfaceID] == id { surfaces[surfaceID] = nil }
        if activeOverlay == id { activeOverlay = nil }
    }
}

extension FalconRegistryMachine.Entry {
    /// Stores `wake` (or nothing) as `timer`'s deadline and returns the one it replaces.
    fileprivate mutating func replaceDeadline(
        of timer: FalconExecutionStateMachine.Timer, with wake: FalconDeadlineHeap<FalconRegistryMachine.Wake>.ID?
    ) -> FalconDeadlineHeap<FalconRegistryMachine.Wake>.ID? {
        switch timer {
        case .loadTimeout:
            defer { loadTimeout = wake }
            return loadTimeout
        case .dwell:
            defer { dwell = wake }
            return dwell
        }
    }
}
