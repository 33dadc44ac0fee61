/// The application version and build the host reports at launch, as they are compared and persisted.
///
/// Both are kept as the host gives them, without surrounding whitespace. Updates are detected by `build`
/// alone (like the mobile SDKs); `version` travels along for the events.
struct ApplicationRelease: Sendable, Hashable {
    /// The user-facing version, such as `1.4.0` (`CFBundleShortVersionString` on iOS).
    var version: String
    /// The build number, such as `112` (`CFBundleVersion` on iOS).
    var build: String

    /// A release from host input: surrounding whitespace is removed, so `"1.4 "` and `"1.4"` are one release.
    init(version: String, build: String) {
        self.version = version.trimmingWhitespace()
        self.build = build.trimmingWhitespace()
    }
}
