#if os(Linux)
import CurlHTTPEngine
import SDKCoreCommon
import Testing

/// The engine's rules that need no server: how an answer's head is read and bounded, and how libcurl's result
/// codes become reasons.
@Suite("Curl engine rules")
struct CurlEngineRulesTests {
    static func feed(_ lines: [String], into head: inout AnswerHead) -> Bool {
        for line in lines {
            let taken = Array(line.utf8).withUnsafeBytes { head.take(line: $0) }
            if !taken { return false }
        }
        return true
    }

    @Test("A head's headers are kept, repeated names joined; an interim 100 head is dropped")
    func headIsRead() {
        var head = AnswerHead()
        let lines = [
            "HTTP/1.1 100 Continue\r\n", "X-Interim: yes\r\n", "\r\n",
            "HTTP/1.1 200 OK\r\n", "Retry-After:  5 \r\n", "Set-Cookie: a\r\n", "Set-Cookie: b\r\n",
        ]
        #expect(Self.feed(lines, into: &head))
        #expect(!head.isComplete)
        #expect(Self.feed(["\r\n"], into: &head))
        #expect(head.isComplete)
        #expect(head.headers == ["Retry-After": "5", "Set-Cookie": "a, b"])
    }

    @Test("A head that ends after an interim head only is not complete")
    func interimOnly() {
        var head = AnswerHead()
        #expect(Self.feed(["HTTP/1.1 103 Early Hints\r\n", "Link: x\r\n", "\r\n"], into: &head))
        #expect(!head.isComplete)
    }

    @Test("Past 64 KiB the head is refused")
    func headIsBounded() {
        var head = AnswerHead()
        let line = "X-Filler: " + String(repeating: "y", count: 1000) + "\r\n"
        var refused = false
        for _ in 0..<100 where !refused {
            refused = !Self.feed([line], into: &head)
        }
        #expect(refused)
        #expect(head.isTooLarge)
    }

    /// A finished transfer as libcurl reports it: code, socket errno, message, and whether the head had ended.
    struct Report: Sendable, CustomTestStringConvertible {
        var code: Int
        var osErrno = 0
        var message = ""
        var headComplete = true
        var reason: SDKCoreTransportFailureReason
        var testDescription: String { "\(code)/\(osErrno)/\(message) → \(reason)" }
    }

    @Test(
        "Result codes become reasons",
        arguments: [
            Report(code: 6, reason: .dns), Report(code: 7, osErrno: 111, reason: .refused),
            Report(code: 7, osErrno: 113, reason: .unreachable), Report(code: 28, reason: .timeout),
            Report(code: 35, reason: .tlsHandshake),
            Report(code: 35, message: "error:0A00010B:SSL routines::wrong version number", reason: .notTLS),
            Report(code: 35, osErrno: 104, reason: .tlsHandshake), Report(code: 60, reason: .certificate),
            Report(code: 77, reason: .certificate), Report(code: 52, reason: .closedEarly),
            Report(code: 18, reason: .closedEarly), Report(code: 56, osErrno: 104, reason: .reset),
            Report(code: 56, reason: .closedEarly),
            Report(
                code: 56, message: "Illegal or missing hexadecimal sequence in chunked-encoding",
                reason: .protocolViolation),
            Report(code: 55, osErrno: 32, reason: .reset), Report(code: 8, reason: .protocolViolation),
            Report(code: 1, reason: .protocolViolation), Report(code: 3, reason: .invalidRequest),
            Report(code: 27, headComplete: false, reason: .protocolViolation), Report(code: 27, reason: .other),
        ])
    func classification(report: Report) {
        let failure = CurlFailure.classify(
            code: report.code, osErrno: report.osErrno, message: report.message, headComplete: report.headComplete)
        #expect(failure.reason == report.reason)
        #expect(failure.curlCode == report.code)
    }
}
#endif
