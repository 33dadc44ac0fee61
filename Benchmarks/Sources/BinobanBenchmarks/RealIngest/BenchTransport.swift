import BenchmarkSupport
import BinobanCore
import BinobanCoreURLSession

/// The transport the separate-process runs use: `BENCH_TRANSPORT=urlsession` for `URLSessionEventTransport`,
/// anything else (or nothing) for the platform's default, what a user gets without setting one (on Linux
/// `CurlEventTransport`).
enum BenchTransport {
    static func configure(_ configuration: inout Configuration) {
        if environment("BENCH_TRANSPORT") == "urlsession" {
            configuration.transport = URLSessionEventTransport()
        } else {
            configuration.transport = Configuration.platformDefaultTransport()
        }
    }

    /// The name printed beside the figures.
    static var name: String {
        environment("BENCH_TRANSPORT") == "urlsession" ? "urlsession" : "platform default"
    }
}
