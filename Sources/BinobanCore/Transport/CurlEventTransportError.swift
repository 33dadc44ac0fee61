#if os(Linux)
import CurlHTTPEngine

/// Why an upload through ``CurlEventTransport`` got no HTTP answer.
///
/// It carries the reason and libcurl's result code only: never the URL, headers or body, so it is safe to log or
/// to hand to an error handler.
public struct CurlEventTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why no HTTP answer arrived: the reasons every transport of both cores names, `SDKCoreTransportFailureReason`
    /// (``BinobanTransportFailure/Reason`` is the same type). The transport never names `cancelled`: a cancelled
    /// upload throws `CancellationError`.
    public typealias Reason = SDKCoreTransportFailureReason

    /// Why no HTTP answer arrived.
    public var reason: Reason
    /// libcurl's result code (`CURLcode`) when libcurl reported one.
    public var curlCode: Int?

    /// Creates an error.
    public init(reason: Reason, curlCode: Int?) {
        self.reason = reason
        self.curlCode = curlCode
    }

    init(_ failure: CurlFailure) {
        self.init(reason: failure.reason, curlCode: failure.curlCode)
    }

    /// A one-line explanation without the URL, e.g. `event upload got no HTTP answer: refused (the server
    /// refused the connection; curl code 7)`: after the colon, the words of ``transportFailure``, which the
    /// instance's reports and the CLI print, so every transport says a reason the same way.
    public var description: String {
        "event upload got no HTTP answer: \(transportFailure)"
    }
}
#endif

#if os(Linux)
extension CurlEventTransportError: BinobanTransportFailureReporting {
    /// The same reason, with what the engine knows beyond it and libcurl's code as the detail (`curl code 7`, `its
    /// head passed the 64 KiB limit; curl code 23`, `libcurl.so.4 could not be loaded`).
    public var transportFailure: BinobanTransportFailure {
        BinobanTransportFailure(reason: reason, detail: CurlFailure(reason: reason, curlCode: curlCode).detail)
    }
}
#endif
