#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The loop that runs a client's ``FalconRegistryMachine``: it queues inputs, steps the machine one input at a
/// time in arrival order, performs the actions, and keeps one clock timer armed for the machine's next deadline.
///
/// An input reported while actions are being performed is queued, never handled re-entrantly. Every host-facing
/// output (callback, event, delegate call, renderer command, presenter operation) is enqueued on the executor in
/// the machine's action order, so none runs inside `execute`; log lines are written at the step.
final class FalconDriver: Sendable {
    typealias Action = FalconExecutionStateMachine.Action

    /// What the lock guards: the registry, the host's configuration and handlers, the inbox and the wake timer.
    struct Core: Sendable {
        var registry: FalconRegistryMachine
        var apiKey: String?
        var config = FalconConfig()
        var eventHandlers: [String: @Sendable (FalconEvent) -> Void] = [:]
        var inbox = FalconInbox()
        var draining = false
        /// The drain's action buffer while no drain runs (emptied, its storage kept).
        var spareActions: [Action] = []
        /// The deadline the wake timer is armed for, and its handle; only the running drain changes them.
        var wakeDeadline: Duration?
        var wakeHandle: (any FalconTimerHandle)?
    }

    let dependencies: FalconClientDependencies
    let core: LockedValue<Core>
    /// The host's diagnostics delegate, which is not `Sendable`: it is only stored and read here and called from
    /// executor jobs (one at a time, outside every lock), never from two threads at once.
    let delegate = LockedValue<(any FalconDiagnosticsDelegate)?>(nil)
    let log: FalconLogWriter
    let beacons = FalconBeaconDispatch()
    let metrics: FalconMetrics

    init(dependencies: FalconClientDependencies) {
        self.dependencies = dependencies
        core = LockedValue(
            Core(registry: FalconRegistryMachine(hasBeaconTransport: dependencies.beaconTransport != nil)))
        log = FalconLogWriter(handler: dependencies.logHandler)
        metrics = FalconMetrics(observer: dependencies.metricsObserver)
    }

    /// Queues `input` for execution `executionID` and drains.
    func submit(_ input: FalconExecutionStateMachine.Input, executionID: UInt64) {
        let shouldDrain = core.withLock { core -> Bool in
            core.inbox.append(executionID, input)
            return core.beginDrain()
        }
        if shouldDrain { drain() }
    }

    /// Keeps the presenter's renderer for the execution, then reports the presentation.
    func overlayPresented(executionID: UInt64, renderer: any FalconRenderer) {
        core.withLock { $0.registry.overlayPresented(executionID, renderer: renderer) }
        submit(.overlayPresented, executionID: executionID)
    }

    /// The wake timer fired: the registry queues the inputs of every deadline now due, and the drain re-arms.
    private func wake() {
        let shouldDrain = core.withLock { core -> Bool in
            core.wakeDeadline = nil
            core.wakeHandle = nil
            core.registry.expire(at: dependencies.clock.now(), into: &core.inbox)
            return core.beginDrain()
        }
        if shouldDrain { drain() }
    }

    /// Handles queued inputs one at a time, performing their actions outside the lock; before it stops, it arms
    /// the wake timer for the registry's next deadline.
    func drain() {
        // One action buffer for the whole drain, kept in the core between drains (only one drain runs at a
        // time): a step appends to it and the buffer is emptied, keeping its storage, once performed.
        var actions: [Action] = core.withLock { core in
            var buffer: [Action] = []
            swap(&buffer, &core.spareActions)
            return buffer
        }
        while true {
            let next = core.withLock { core -> Next in
                guard let (id, input) = core.inbox.next() else {
                    if let rearm = core.rearm() { return .rearm(rearm.cancel, rearm.deadline) }
                    core.draining = false
                    swap(&actions, &core.spareActions)
                    return .done
                }
                return .step(core.registry.step(input, of: id, at: dependencies.clock.now(), appendingTo: &actions))
            }
            switch next {
            case .done:
                return
            case .rearm(let cancelled, let deadline):
                cancelled?.cancel()
                guard let deadline else { continue }
                let handle = dependencies.clock.schedule(
                    FalconTimerRequest(deadline: deadline) { [weak self] in self?.wake() })
                core.withLock { $0.wakeHandle = handle }
            case .step(let step):
                if step.ignoredBridgeMessage {
                    log.log(.debug, nil, "bridge message ignored (malformed, unknown name or not an event)")
                }
                if let delivery = step.delivery {
                    for action in actions { perform(action, delivery, beacon: step.beacon) }
                }
                actions.removeAll(keepingCapacity: true)
            }
        }
    }

    private enum Next {
        case step(FalconRegistryMachine.Step)
        case rearm((any FalconTimerHandle)?, Duration?)
        case done
    }

    private func perform(
        _ action: Action, _ execution: FalconExecutionDelivery, beacon: FalconRegistryMachine.BeaconDecision
    ) {
        // Counted at the transition, under the lock; the observer hears of it now, in action order.
        metrics.forward(action)
        let executor = dependencies.executor
        switch action {
        case .callback(let callback):
            executor.enqueue(execution.context.callbacks.job(for: callback))
        case .event(let event):
            guard let layoutId = execution.context.layoutId else { return }
            let delivered: FalconEvent
            switch event {
            case .interactive: delivered = .placementInteractive
            case .completed: delivered = .placementCompleted
            case .failure(let error): delivered = .placementFailure(error)
            }
            executor.enqueue { [weak self] in
                guard let handler = self?.core.withLock({ $0.eventHandlers[layoutId] }) else { return }
                handler(delivered)
            }
        case .diagnose(let code, let message):
            diagnose(code, message, execution.context, beacon)
        case .renderer(let command):
            // The renderer is resolved now and held by the queued job until delivery (one executor turn), so
            // every command the machine emitted reaches it, even after the execution ended (a teardown).
            let request = FalconRenderRequest(command: command, reporter: execution.context.reporter)
            if let surface = execution.context.inlineSurface {
                executor.enqueue { surface.perform(request) }
            } else if let overlay = execution.overlayRenderer {
                executor.enqueue { overlay.renderer.perform(request) }
            }
        case .presentOverlay:
            present(.present, execution)
        case .dismissOverlay:
            present(.dismiss, execution)
        case .warnSurfaceReleasedEarly:
            log.log(
                .warning, nil,
                "inline surface released before its placement settled (layoutId "
                    + "\(execution.context.diagnosticLayoutId ?? "-")); the execution was cancelled. Keep a strong "
                    + "reference to the surface until onLoad or onError")
        case .armTimer, .cancelTimer, .finished:
            break  // The registry applied them at the step: deadlines, and the execution's removal.
        }
    }
}

extension FalconDriver {
    private func present(_ operation: FalconOverlayRequest.Operation, _ execution: FalconExecutionDelivery) {
        let presenter = dependencies.overlayPresenter
        let request = FalconOverlayRequest(operation: operation, reporter: execution.context.reporter)
        dependencies.executor.enqueue { presenter.perform(request) }
    }
}

extension FalconDriver.Core {
    /// Marks the inbox as being drained; `true` when the caller must drain it.
    mutating func beginDrain() -> Bool {
        if draining { return false }
        draining = true
        return true
    }

    /// What to change about the wake timer so it fires no later than the registry's next deadline: arm it
    /// earlier (cancelling the armed one) or, with nothing pending, cancel it. A timer armed for an earlier
    /// deadline than needed stays: it wakes, finds nothing due and re-arms then, which is cheaper than
    /// re-arming at every cancellation. `nil` when nothing changes.
    mutating func rearm() -> (cancel: (any FalconTimerHandle)?, deadline: Duration?)? {
        let next = registry.nextDeadline
        if let next, let armed = wakeDeadline, armed <= next { return nil }
        if next == nil, wakeDeadline == nil { return nil }
        defer {
            wakeDeadline = next
            wakeHandle = nil
        }
        return (wakeHandle, next)
    }
}
