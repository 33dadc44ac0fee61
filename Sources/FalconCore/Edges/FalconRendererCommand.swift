#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Commands for the execution's renderer.
public enum FalconRendererCommand: Sendable, Hashable {
    /// Load the placement URL; the renderer reports the initial navigation with `navigationID`.
    case load(URL, navigationID: Int)
    /// Stop loading.
    case stop
    /// Set the inline surface's height in points.
    case setContentHeight(Double)
    /// Release the web view and everything it holds.
    case teardown
    /// Open a URL outside the web view.
    case openExternally(URL)
}
