/// Where a placement is rendered.
public enum FalconPlacement: Sendable {
    /// Inside a host surface (the host's web view) whose height the SDK drives.
    ///
    /// A new execute on the same surface supersedes the one still running there.
    case inline(any FalconInlineSurface)
    /// As a full-screen modal shown by the client's ``FalconOverlayPresenter``.
    ///
    /// Only one overlay can be active at a time; a second one fails with ``FalconDiagnosticCode/noPresenter``.
    case overlay
}
