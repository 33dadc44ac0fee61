/// The version of this package, the one place it is written.
///
/// BinobanCore sends it as `context.library.version` and in the `User-Agent` (`Binoban.version`
/// answers it), and `sdkcore --version` prints it. Falcon's `Falcon.version` is different on purpose: it is the
/// version of the iOS SDK whose behaviour FalconCore ports, which the Falcon backend reads from beacons.
///
/// The newest versioned section of `CHANGELOG.md` names the same version; a test keeps the two in step.
public enum SDKCoreVersion: Sendable {
    /// The semantic version of the package, such as `"0.1.0"`.
    public static let current = "0.1.0"
}
