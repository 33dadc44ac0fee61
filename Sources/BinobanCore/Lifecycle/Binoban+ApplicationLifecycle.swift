/// Application lifecycle reported by the host.
///
/// There is no `UIApplication` on Linux (and BinobanCore does not observe it on Apple platforms either), so the
/// host forwards its own launch, foreground and background callbacks. With
/// ``Configuration/trackApplicationLifecycleEvents`` (the default) they become the mobile SDKs' events:
///
/// | Call | Events |
/// |---|---|
/// | ``applicationDidFinishLaunching(version:build:)`` | `Application Installed {version, build}` on the first run, or `Application Updated {version, build, previous_version, previous_build}` when the persisted build differs; then `Application Opened {from_background: false, version, build}`. Once per instance. |
/// | ``applicationWillEnterForeground()`` | `Application Opened {from_background: true, version, build}`, only after ``applicationDidEnterBackground()``. |
/// | ``applicationDidEnterBackground()`` | `Application Backgrounded`, then a non-waiting flush (the flush happens even with the flag off). |
///
/// ```swift
/// binoban.applicationDidFinishLaunching(version: "1.4.0", build: "112")
/// binoban.applicationDidEnterBackground()  // Application Backgrounded, then an upload
/// binoban.applicationWillEnterForeground()  // Application Opened, from_background: true
/// ```
extension Binoban {
    /// Reports that the application finished launching, with its user-facing `version` (`1.4.0`) and `build`
    /// (`112`).
    ///
    /// Compares `build` with the one persisted by the previous launch (beside the identity, in the key-value
    /// store) and tracks `Application Installed` when none was persisted, `Application Updated` when it differs,
    /// then `Application Opened` with `from_background: false`. The new version and build are persisted even
    /// when ``Configuration/trackApplicationLifecycleEvents`` is `false` or the instance is paused, so a later
    /// launch does not mistake an old installation for a new one. Only the first call of an instance counts.
    /// Surrounding whitespace is removed; a blank value is used as an empty string and reported
    /// (``BinobanError/Kind/configurationAdjusted``). Returns at once; never throws or traps.
    public func applicationDidFinishLaunching(version: String, build: String) {
        _ = handleApplicationLifecycle(.didFinishLaunching(version: version, build: build))
    }

    /// Reports that the application is about to enter the foreground.
    ///
    /// After ``applicationDidEnterBackground()`` this tracks `Application Opened` with `from_background: true`
    /// (and the launch's `version` and `build` when a launch was reported). Without a background before it, the
    /// call is ignored, so a duplicate foreground callback never produces a second `Application Opened`.
    public func applicationWillEnterForeground() {
        _ = handleApplicationLifecycle(.willEnterForeground)
    }

    /// Reports that the application entered the background.
    ///
    /// Tracks `Application Backgrounded` (once per background, duplicates are ignored), then asks for an upload
    /// of what is stored without waiting for it, whatever ``Configuration/trackApplicationLifecycleEvents``
    /// says. A paused instance neither tracks nor uploads, as for any other event and flush.
    public func applicationDidEnterBackground() {
        _ = handleApplicationLifecycle(.didEnterBackground)
    }

    /// Handles one lifecycle input and returns how many events the instance accepted (for the scenario runner,
    /// which waits until accepted events reached the storage).
    package func handleApplicationLifecycle(_ input: ApplicationLifecycleInput) -> Int {
        guard let runtime else { return 0 }
        let outcome = runtime.lifecycle.handle(input) { action in
            switch action {
            case .record(let release):
                runtime.intake.changeIdentity({ $0.application = release }, thenEmit: nil)
                return false
            case .track(let name, let properties):
                return accept(.track, name: name, payload: properties)
            case .flush:
                _ = runtime.intake.requestFlush(waiterID: nil)
                return false
            case .reportInput:
                return false
            }
        }
        for message in outcome.reports { runtime.reporter.report(.configurationAdjusted, message) }
        return outcome.acceptedEvents
    }
}
