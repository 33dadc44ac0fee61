#if os(Linux)
import CurlHTTPEngine

/// Why a beacon sent through ``CurlBeaconTransport`` got no HTTP answer.
///
/// It carries the reason and libcurl's result code only: never the URL, headers or body, so it is safe to log or
/// to hand to an error handler.
public struct CurlBeaconTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why no HTTP answer arrived: the reasons every transport of both cores names, `SDKCoreTransportFailureReason`.
    /// The transport never names `cancelled`: a cancelled call throws `CancellationError`.
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

    /// A one-line explanation without the URL, e.g. `beacon got no HTTP answer: refused (the server
    /// refused the connection; curl code 7)`.
    public var description: String {
        "beacon got no HTTP answer: \(CurlFailure(reason: reason, curlCode: curlCode).reasonAndExplanation)"
    }
}
#endif
