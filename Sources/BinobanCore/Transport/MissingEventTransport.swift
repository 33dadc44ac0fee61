/// The error a pipeline records when no transport was configured.
struct MissingEventTransport: Error, CustomStringConvertible {
    var description: String {
        "no event transport is configured; batches are kept. Set Configuration.transport, for example to "
            + Self.suggestion
    }

    /// The warning reported once when an instance is created without a transport: names the line that fixes it.
    static let creationWarning =
        "no event transport is configured, so events are stored but never uploaded. Add this line to the "
        + "configuration closure: " + fixLine

    /// The line that installs this platform's transport.
    static var fixLine: String {
        #if os(Linux)
        "config.transport = CurlEventTransport()"
        #else
        "config.transport = URLSessionEventTransport()  // import BinobanCoreURLSession"
        #endif
    }

    private static var suggestion: String {
        #if os(Linux)
        "CurlEventTransport() (BinobanCore's default on Linux)"
        #else
        "URLSessionEventTransport() from the BinobanCoreURLSession product"
        #endif
    }
}
