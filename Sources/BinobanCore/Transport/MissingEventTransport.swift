/// The error a pipeline records when no transport was configured.
struct MissingEventTransport: Error, CustomStringConvertible {
    var description: String {
        "no event transport is configured; batches are kept. Set Configuration.transport, for example to "
            + "URLSessionEventTransport() from the BinobanCoreURLSession product"
    }
}
