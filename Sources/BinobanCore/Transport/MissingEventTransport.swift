/// The error a pipeline records when no transport was configured.
struct MissingEventTransport: Error, CustomStringConvertible {
    var description: String {
        "no event transport is configured; batches are kept. Set Configuration.transport, for example to "
            + "URLSessionEventTransport() from the BinobanCoreURLSession product"
    }

    /// The warning reported once when an instance is created without a transport: names the line that fixes it.
    static let creationWarning =
        "no event transport is configured, so events are stored but never uploaded. Add this line to the "
        + "configuration closure: config.transport = URLSessionEventTransport()  // import BinobanCoreURLSession"
}
