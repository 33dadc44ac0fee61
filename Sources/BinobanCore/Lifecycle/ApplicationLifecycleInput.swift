/// One lifecycle transition the host reports on a ``Binoban`` instance.
package enum ApplicationLifecycleInput: Sendable, Hashable {
    /// The application finished launching with this version and build.
    case didFinishLaunching(version: String, build: String)
    /// The application is about to come back to the foreground.
    case willEnterForeground
    /// The application went to the background.
    case didEnterBackground
}
