#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an execution keeps from its `execute` call until it ends, shared by reference: the registry holds it
/// beside the machine and every step hands it to the driver without copying its fields.
package final class FalconExecutionContext: Sendable {
    /// The host's callbacks.
    let callbacks: FalconCallbacks
    /// The layout id whose events handler receives this execution's events.
    let layoutId: String?
    /// The placement named in diagnostics and beacons.
    let diagnosticPlacement: String?
    /// The layout id named in diagnostics and beacons.
    let diagnosticLayoutId: String?
    /// The inline surface's identity, which the registry's surface map is keyed by.
    let surfaceID: ObjectIdentifier?
    /// Whether the execution renders on a host surface (which ``inlineSurface`` held until released).
    let rendersInline: Bool
    /// The host's inline surface, held weakly: the host owns its views, and a surface it releases must be able
    /// to deallocate (and report its teardown) while a placement is still showing. A weak field of this object
    /// rather than a box of its own: one allocation per execute fewer.
    weak let inlineSurface: (any FalconInlineSurface)?
    /// The channel the renderer and presenter report through.
    let reporter: FalconExecutionReporter
    /// Where this execution's beacons go; `nil` for none.
    let beaconTarget: URL?

    init(
        callbacks: FalconCallbacks, layoutId: String?, diagnosticPlacement: String?, diagnosticLayoutId: String?,
        inlineSurface: (any FalconInlineSurface)?, reporter: FalconExecutionReporter, beaconTarget: URL?
    ) {
        self.callbacks = callbacks
        self.layoutId = layoutId
        self.diagnosticPlacement = diagnosticPlacement
        self.diagnosticLayoutId = diagnosticLayoutId
        self.surfaceID = inlineSurface.map { ObjectIdentifier($0) }
        self.rendersInline = inlineSurface != nil
        self.inlineSurface = inlineSurface
        self.reporter = reporter
        self.beaconTarget = beaconTarget
    }

    /// The overlay's renderer in a box of its own: a class reference copies with one retain, where an optional
    /// existential of a protocol that is not class-bound copies through the runtime's generic witness.
    package final class OverlayRenderer: Sendable {
        let renderer: any FalconRenderer

        init(_ renderer: any FalconRenderer) {
            self.renderer = renderer
        }
    }
}

extension FalconExecutionContext {
    /// A context with no client behind it: its callbacks do nothing and its reports go nowhere. For driving a
    /// registry machine on its own, as its model tests do.
    package static func unattached(
        executionID: UInt64, inlineSurface: (any FalconInlineSurface)?, beaconTarget: URL?
    ) -> FalconExecutionContext {
        FalconExecutionContext(
            callbacks: FalconCallbacks(
                onLoad: {}, onUnload: {}, onError: { _ in }, onShouldShowLoadingIndicator: {},
                onShouldHideLoadingIndicator: {}),
            layoutId: nil, diagnosticPlacement: nil, diagnosticLayoutId: nil, inlineSurface: inlineSurface,
            reporter: FalconExecutionReporter(driver: nil, executionID: executionID), beaconTarget: beaconTarget)
    }
}

/// What performing one step's actions needs, taken out of the lock: two references, not the machine.
package struct FalconExecutionDelivery: Sendable {
    let context: FalconExecutionContext
    let overlayRenderer: FalconExecutionContext.OverlayRenderer?
}
