/// The default ``Configuration/contextProvider``: on Apple platforms the app, device type, OS, locale and
/// time zone of the process (``ProcessContextProvider``); elsewhere (a server) nothing.
///
/// A server's events describe its users, and the server's own process name, kernel version, `LANG` and
/// time zone are none of theirs, so on Linux an event's `context` carries only `library` and `device.id`,
/// as Segment's server libraries send (Decision 0212). Supply a provider to describe more.
public struct DefaultContextProvider: BinobanContextProvider {
    /// Creates the default provider.
    public init() {}

    /// The process's description on Apple platforms; an empty context elsewhere.
    public func staticContext() -> BinobanStaticContext {
        #if canImport(Darwin)
        return ProcessContextProvider().staticContext()
        #else
        return BinobanStaticContext()
        #endif
    }
}
