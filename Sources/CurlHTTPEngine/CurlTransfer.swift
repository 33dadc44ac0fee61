import CCurlShim
import SDKCoreCommon

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One request on its easy handle, owned by the engine's thread from start to finish. libcurl's header and write
/// callbacks reach it through an unretained pointer: the engine keeps it alive while the handle is in the multi.
final class CurlTransfer {
    /// The most answer body bytes read: 64 KiB. The body is counted, never kept; past this the transfer stops and
    /// the status and headers are the answer.
    static let bodyLimit = 64 * 1024

    let id: UInt64
    let easy: OpaquePointer
    /// When the engine took the request, for ``CurlRequest/ended``.
    private let startedAt = ContinuousClock.now
    private var ended: (@Sendable (Duration) -> Void)?
    private(set) var head = AnswerHead()
    private(set) var bodyByteCount = 0
    /// Whether the transfer was stopped because the body passed ``bodyLimit``.
    private(set) var bodyCapped = false
    /// Held until the transfer ends: libcurl reads it until then.
    private var headerList: CurlHeaderList?
    /// libcurl's message buffer (`CURLOPT_ERRORBUFFER`): read only to recognise a plain-text answer to a TLS
    /// handshake, never shown (it may name the host).
    private let messageBuffer: UnsafeMutablePointer<CChar>

    init(id: UInt64, easy: OpaquePointer) {
        self.id = id
        self.easy = easy
        messageBuffer = .allocate(capacity: Int(CCURL_ERROR_SIZE))
        messageBuffer.initialize(repeating: 0, count: Int(CCURL_ERROR_SIZE))
    }

    deinit {
        messageBuffer.deallocate()
    }

    /// Sets every option of `request` on the easy handle, with `headers` built from its headers (`nil`: they
    /// could not be sent). `nil` when libcurl accepted them all.
    func configure(_ request: CurlRequest, headers: CurlHeaderList?) -> CurlFailure? {
        var refused = false
        func set(_ option: Int32, _ value: Int) {
            refused = refused || ccurl_easy_setopt_long(easy, option, value) != 0
        }
        func set(_ option: Int32, string: String?) {
            let code = string.withOptionalCString { ccurl_easy_setopt_pointer(easy, option, $0) }
            refused = refused || code != 0
        }
        guard let headers else { return CurlFailure(reason: .invalidRequest, curlCode: nil) }
        ended = request.ended
        let context = Unmanaged.passUnretained(self).toOpaque()
        set(CCURL_OPT_NOSIGNAL, 1)
        set(CCURL_OPT_PROTOCOLS, Int(CCURL_PROTO_HTTP | CCURL_PROTO_HTTPS))
        set(CCURL_OPT_URL, string: request.url)
        set(CCURL_OPT_HTTP_VERSION, Int(CCURL_HTTP_VERSION_1_1))
        set(CCURL_OPT_FOLLOWLOCATION, 0)
        set(CCURL_OPT_SSL_VERIFYPEER, 1)
        set(CCURL_OPT_SSL_VERIFYHOST, 2)
        if let bundle = request.caBundlePath ?? Self.environmentBundle() {
            set(CCURL_OPT_CAINFO, string: bundle)
            set(CCURL_OPT_CAPATH, string: nil)  // the bundle alone decides, not the system's directory as well
        }
        set(CCURL_OPT_TIMEOUT_MS, Self.milliseconds(request.deadline))
        set(CCURL_OPT_CONNECTTIMEOUT_MS, Self.milliseconds(min(request.connectTimeout, request.deadline)))
        if let stall = request.stallTimeout {
            // Less than one byte per second for this many seconds ends the transfer as a timeout.
            set(CCURL_OPT_LOW_SPEED_LIMIT, 1)
            set(CCURL_OPT_LOW_SPEED_TIME, max(1, Int((Self.milliseconds(stall) + 999) / 1000)))
        }
        refused = refused || ccurl_easy_setopt_pointer(easy, CCURL_OPT_ERRORBUFFER, messageBuffer) != 0
        refused = refused || ccurl_easy_setopt_callback(easy, CCURL_OPT_HEADERFUNCTION, headerCallback) != 0
        refused = refused || ccurl_easy_setopt_pointer(easy, CCURL_OPT_HEADERDATA, context) != 0
        refused = refused || ccurl_easy_setopt_callback(easy, CCURL_OPT_WRITEFUNCTION, bodyCallback) != 0
        refused = refused || ccurl_easy_setopt_pointer(easy, CCURL_OPT_WRITEDATA, context) != 0

        headerList = headers
        refused =
            refused || ccurl_easy_setopt_pointer(easy, CCURL_OPT_HTTPHEADER, UnsafeRawPointer(headers.pointer)) != 0

        let method = request.method.uppercased()
        if method == "HEAD" {
            set(CCURL_OPT_NOBODY, 1)
        } else {
            // libcurl copies the body, so the request's bytes need not outlive this call.
            refused =
                refused || ccurl_easy_setopt_int64(easy, CCURL_OPT_POSTFIELDSIZE_LARGE, Int64(request.body.count)) != 0
            let copied = request.body.withUnsafeBytes { bytes -> Int32 in
                ccurl_easy_setopt_pointer(
                    easy, CCURL_OPT_COPYPOSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(messageBuffer))
            }
            refused = refused || copied != 0
        }
        if method != "POST" { set(CCURL_OPT_CUSTOMREQUEST, string: request.method) }
        return refused ? CurlFailure(reason: .invalidRequest, curlCode: nil) : nil
    }

    /// The answer or the failure, once libcurl reported the transfer done with `code`.
    func outcome(code: Int32) -> Result<CurlAnswer, CurlFailure> {
        var status = 0
        _ = ccurl_easy_getinfo_long(easy, CCURL_INFO_RESPONSE_CODE, &status)
        if head.isTooLarge { return .failure(CurlFailure(reason: .protocolViolation, curlCode: Int(code))) }
        var osErrno = 0
        _ = ccurl_easy_getinfo_long(easy, CCURL_INFO_OS_ERRNO, &osErrno)
        if code == 0 && !head.isComplete {
            // The server closed inside the head; libcurl took the close for the end of a close-delimited answer.
            return .failure(CurlFailure(reason: .closedEarly, curlCode: nil))
        }
        if code == 0 || (bodyCapped && status > 0) {
            return .success(CurlAnswer(statusCode: status, headers: head.headers))
        }
        let message = String(cString: messageBuffer)
        return .failure(
            CurlFailure.classify(code: Int(code), osErrno: osErrno, message: message, headComplete: head.isComplete))
    }

    /// Tells the request's observer, if any, how long the transfer took on the engine's clock.
    func reportEnd() {
        ended?(ContinuousClock.now - startedAt)
    }

    fileprivate func takeHeaderLine(_ line: UnsafeRawBufferPointer) -> Bool {
        head.take(line: line)
    }

    fileprivate func takeBody(count: Int) -> Bool {
        bodyByteCount += count
        if bodyByteCount > Self.bodyLimit {
            bodyCapped = true
            return false
        }
        return true
    }

    private static func environmentBundle() -> String? {
        guard let value = getenv("SSL_CERT_FILE") else { return nil }
        let path = String(cString: value)
        return path.isEmpty ? nil : path
    }

    /// A duration in whole milliseconds for libcurl: at least 1 (0 would mean "no limit"), at most `Int32.max`.
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 1 }
        let total = seconds.multipliedReportingOverflow(by: 1000)
        guard !total.overflow else { return Int(Int32.max) }
        let millis = total.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int(max(1, min(millis, Int64(Int32.max))))
    }
}

/// `CURLOPT_HEADERFUNCTION`: one complete head line per call.
private let headerCallback: ccurl_data_callback = { bytes, size, count, context in
    let length = size * count
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.takeHeaderLine(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : 0
}

/// `CURLOPT_WRITEFUNCTION`: body bytes, counted and dropped; 0 past the body limit stops the transfer.
private let bodyCallback: ccurl_data_callback = { _, size, count, context in
    let length = size * count
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.takeBody(count: length) ? length : 0
}

extension Optional where Wrapped == String {
    fileprivate func withOptionalCString<Result>(_ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        switch self {
        case .some(let text): text.withCString { body($0) }
        case .none: body(nil)
        }
    }
}
