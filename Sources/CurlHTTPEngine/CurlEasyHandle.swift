import CCurlShim
import SDKCoreCommon

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One libcurl easy handle, owned by the engine's thread, with the options it was last configured for.
///
/// The core sends every batch of an instance with the same method, address, headers, TLS settings and time limits;
/// only the body changes. A handle whose last transfer ended with an answer keeps its options, and the next
/// request of the same ``CurlEasyShape`` sets only its body and its transfer's context: `curl_easy_reset` and the
/// twenty-odd options it would undo are skipped. A request of another shape resets the handle first, so no option
/// of an earlier request ever reaches it. A handle whose transfer failed or was stopped is cleaned up, never kept.
final class CurlEasyHandle {
    let easy: OpaquePointer
    /// The shape the options were set for; `nil` when the handle is fresh or reset.
    private(set) var shape: CurlEasyShape?
    /// Held while the options point at it: libcurl reads the list during every transfer of this shape.
    private var headerList: CurlHeaderList?
    /// libcurl's message buffer (`CURLOPT_ERRORBUFFER`): read only to recognise a plain-text answer to a TLS
    /// handshake, never shown (it may name the host). Owned here because libcurl keeps the pointer as an option.
    let messageBuffer: UnsafeMutablePointer<CChar>

    /// A fresh handle; `nil` when libcurl cannot make one.
    init?() {
        guard let easy = ccurl_easy_init() else { return nil }
        self.easy = easy
        messageBuffer = .allocate(capacity: Int(CCURL_ERROR_SIZE))
        messageBuffer.initialize(repeating: 0, count: Int(CCURL_ERROR_SIZE))
    }

    deinit {
        // The handle first: libcurl may point at the header list and the buffer until it is gone.
        ccurl_easy_cleanup(easy)
        messageBuffer.deallocate()
    }

    /// Sets every option of `request`'s shape (all but the body and the transfer's context), unless the handle
    /// holds them already. `nil` when libcurl accepted them all; after a refusal the handle must not be kept.
    func prepare(for request: CurlRequest, shape: CurlEasyShape, headers: CurlHeaderList) -> CurlFailure? {
        if self.shape == shape { return nil }
        if self.shape != nil { ccurl_easy_reset(easy) }
        self.shape = nil
        headerList = headers
        var refused = false
        func set(_ option: Int32, _ value: Int) {
            refused = refused || ccurl_easy_setopt_long(easy, option, value) != 0
        }
        func set(_ option: Int32, string: String?) {
            let code = string.withOptionalCString { ccurl_easy_setopt_pointer(easy, option, $0) }
            refused = refused || code != 0
        }
        set(CCURL_OPT_NOSIGNAL, 1)
        set(CCURL_OPT_PROTOCOLS, Int(CCURL_PROTO_HTTP | CCURL_PROTO_HTTPS))
        set(CCURL_OPT_URL, string: request.url)
        set(CCURL_OPT_HTTP_VERSION, Int(CCURL_HTTP_VERSION_1_1))
        set(CCURL_OPT_FOLLOWLOCATION, 0)
        set(CCURL_OPT_SSL_VERIFYPEER, 1)
        set(CCURL_OPT_SSL_VERIFYHOST, 2)
        if let bundle = shape.caBundlePath {
            set(CCURL_OPT_CAINFO, string: bundle)
            set(CCURL_OPT_CAPATH, string: nil)  // the bundle alone decides, not the system's directory as well
        }
        set(CCURL_OPT_TIMEOUT_MS, shape.deadlineMilliseconds)
        set(CCURL_OPT_CONNECTTIMEOUT_MS, shape.connectMilliseconds)
        if let stallSeconds = shape.stallSeconds {
            // Less than one byte per second for this many seconds ends the transfer as a timeout.
            set(CCURL_OPT_LOW_SPEED_LIMIT, 1)
            set(CCURL_OPT_LOW_SPEED_TIME, stallSeconds)
        }
        refused = refused || ccurl_easy_setopt_pointer(easy, CCURL_OPT_ERRORBUFFER, messageBuffer) != 0
        refused = refused || ccurl_easy_setopt_callback(easy, CCURL_OPT_HEADERFUNCTION, curlHeaderCallback) != 0
        refused = refused || ccurl_easy_setopt_callback(easy, CCURL_OPT_WRITEFUNCTION, curlBodyCallback) != 0
        refused =
            refused || ccurl_easy_setopt_pointer(easy, CCURL_OPT_HTTPHEADER, UnsafeRawPointer(headers.pointer)) != 0
        let method = request.method.uppercased()
        if method == "HEAD" { set(CCURL_OPT_NOBODY, 1) }
        if method != "POST" { set(CCURL_OPT_CUSTOMREQUEST, string: request.method) }
        if refused { return CurlFailure(reason: .invalidRequest, curlCode: nil) }
        self.shape = shape
        return nil
    }
}

/// What the options of a request depend on, besides its body: requests of one shape can share a configured
/// handle. The header list is compared by identity: the engine builds one list per set of headers and hands the
/// same list to every request that sends them.
struct CurlEasyShape: Equatable {
    var method: String
    var url: String
    var caBundlePath: String?
    var deadlineMilliseconds: Int
    var connectMilliseconds: Int
    var stallSeconds: Int?
    var headerList: ObjectIdentifier

    init(_ request: CurlRequest, headers: CurlHeaderList, environmentBundle: String?) {
        method = request.method
        url = request.url
        caBundlePath = request.caBundlePath ?? environmentBundle
        deadlineMilliseconds = CurlTransfer.milliseconds(request.deadline)
        connectMilliseconds = CurlTransfer.milliseconds(min(request.connectTimeout, request.deadline))
        stallSeconds = request.stallTimeout.map { max(1, (CurlTransfer.milliseconds($0) + 999) / 1000) }
        headerList = ObjectIdentifier(headers)
    }
}

extension Optional where Wrapped == String {
    fileprivate func withOptionalCString<Result>(_ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        switch self {
        case .some(let text): text.withCString { body($0) }
        case .none: body(nil)
        }
    }
}
