#if os(Linux)
import CurlHTTPEngine
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

    @Test(
        "Result codes become reasons",
        arguments: [
            (6, 0, false, CurlFailureReason.dns), (7, 111, false, .refused), (7, 113, false, .unreachable),
            (28, 0, false, .timeout), (35, 0, false, .tlsHandshake), (35, 0, true, .notTLS), (35, 104, false, .reset),
            (60, 0, false, .certificate), (77, 0, false, .certificate), (52, 0, false, .closedEarly),
            (18, 0, false, .closedEarly), (56, 104, false, .reset), (56, 0, false, .closedEarly),
            (55, 32, false, .reset), (8, 0, false, .protocolViolation), (1, 0, false, .protocolViolation),
            (3, 0, false, .invalidRequest), (27, 0, false, .other),
        ])
    func classification(code: Int, osErrno: Int, plainText: Bool, reason: CurlFailureReason) {
        let failure = CurlFailure.classify(code: code, osErrno: osErrno, plainTextAnswer: plainText)
        #expect(failure.reason == reason)
        #expect(failure.curlCode == code)
    }
}
#endif
