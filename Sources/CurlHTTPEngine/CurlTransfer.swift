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
    /// The handle, configured for the request's shape before the transfer starts.
    let handle: CurlEasyHandle
    var easy: OpaquePointer { handle.easy }
    /// When the engine took the request, for ``CurlRequest/ended``.
    private let startedAt = ContinuousClock.now
    private var ended: (@Sendable (Duration) -> Void)?
    private(set) var head = AnswerHead()
    private(set) var bodyByteCount = 0
    /// Whether the transfer was stopped because the body passed ``bodyLimit``.
    private(set) var bodyCapped = false

    init(id: UInt64, handle: CurlEasyHandle) {
        self.id = id
        self.handle = handle
    }

    /// Sets what differs from one request of a shape to the next: the body and this transfer as the callbacks'
    /// context. The handle holds the rest (``CurlEasyHandle/prepare(for:shape:headers:)``). `nil` when libcurl
    /// accepted them all.
    func attach(_ request: CurlRequest) -> CurlFailure? {
        ended = request.ended
        handle.messageBuffer[0] = 0
        let context = Unmanaged.passUnretained(self).toOpaque()
        var refused = ccurl_easy_setopt_pointer(easy, CCURL_OPT_HEADERDATA, context) != 0
        refused = refused || ccurl_easy_setopt_pointer(easy, CCURL_OPT_WRITEDATA, context) != 0
        if request.method.uppercased() != "HEAD" {
            // The size first: it drops a copy of an earlier body of another size. libcurl copies the body, so the
            // request's bytes need not outlive this call.
            refused =
                refused || ccurl_easy_setopt_int64(easy, CCURL_OPT_POSTFIELDSIZE_LARGE, Int64(request.body.count)) != 0
            let copied = request.body.withUnsafeBytes { bytes -> Int32 in
                ccurl_easy_setopt_pointer(
                    easy, CCURL_OPT_COPYPOSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(handle.messageBuffer))
            }
            refused = refused || copied != 0
        }
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
        let message = String(cString: handle.messageBuffer)
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

    /// The bundle `SSL_CERT_FILE` names, if any: read at every request, as before handles were kept.
    static func environmentBundle() -> String? {
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
let curlHeaderCallback: ccurl_data_callback = { bytes, size, count, context in
    let length = size * count
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.takeHeaderLine(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : 0
}

/// `CURLOPT_WRITEFUNCTION`: body bytes, counted and dropped; 0 past the body limit stops the transfer.
let curlBodyCallback: ccurl_data_callback = { _, size, count, context in
    let length = size * count
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.takeBody(count: length) ? length : 0
}
