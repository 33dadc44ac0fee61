extension Binoban {
    /// The iOS SDK's spelling of the static controls: `Binoban.companion.debugLogsEnabled = true`.
    public static var companion: BinobanCompanion { BinobanCompanion() }
}

/// The static controls of ``Binoban`` under the name the Kotlin-generated iOS API uses.
public struct BinobanCompanion: Sendable {
    /// Whether reports are also printed to standard output (the same switch as `Binoban.debugLogsEnabled`).
    public var debugLogsEnabled: Bool {
        get { Binoban.debugLogsEnabled }
        nonmutating set { Binoban.debugLogsEnabled = newValue }
    }
}
