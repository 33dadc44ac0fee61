import Testing

@testable import LoopbackHTTP

@Suite("HTTPRequestParser")
struct HTTPRequestParserTests {
    private static let limits = HTTPRequestParser.Limits(maxHeadBytes: 4096, maxBodyBytes: 1 << 20)

    /// Feeds `bytes` in slices of `step` and collects every event until the bytes are used up.
    private func events(_ text: String, step: Int) -> [HTTPRequestParser.Event] {
        var parser = HTTPRequestParser(limits: Self.limits)
        let bytes = Array(text.utf8)
        var collected: [HTTPRequestParser.Event] = []
        var offset = 0
        while true {
            let event = parser.nextEvent()
            if event == .needMoreData {
                guard offset < bytes.count else { return collected }
                let end = min(bytes.count, offset + step)
                parser.append(Array(bytes[offset..<end]))
                offset = end
            } else {
                collected.append(event)
                if case .failure = event { return collected }
            }
        }
    }

    private func requests(_ events: [HTTPRequestParser.Event]) -> [HTTPRequestParser.ParsedRequest] {
        events.compactMap {
            if case .request(let request) = $0 { return request }
            return nil
        }
    }

    static let pipelined =
        "\r\nPOST /a HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
        + "POST /b HTTP/1.1\nTransfer-Encoding: chunked\n\n3;x=y\r\ndef\r\n2\r\ngh\r\n0\r\nT: 1\r\n\r\n"
        + "GET /c HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"

    @Test("gives the same requests whatever the read sizes", arguments: [1, 2, 3, 7, 64, 4096])
    func readSizes(step: Int) {
        let parsed = requests(events(Self.pipelined, step: step))

        #expect(parsed.map(\.target) == ["/a", "/b", "/c"])
        #expect(parsed.map { String(decoding: $0.body, as: UTF8.self) } == ["abc", "defgh", ""])
        #expect(parsed.map(\.keepAlive) == [true, true, true])
        #expect(parsed.map(\.version) == ["HTTP/1.1", "HTTP/1.1", "HTTP/1.0"])
    }

    @Test("asks for 100 Continue only when the body has not started to arrive")
    func continueOnlyBeforeBody() {
        let head = "POST / HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\n"

        let separate = events(head, step: head.utf8.count)
        #expect(separate == [.sendContinue])

        let together = events(head + "ok", step: 4096)
        #expect(together.count == 1)
        #expect(requests(together).first?.body == Array("ok".utf8))

        let noBody = events("GET / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n", step: 4096)
        #expect(requests(noBody).count == 1)
    }

    @Test("Connection tokens decide keep-alive")
    func keepAliveRules() {
        let parsed = requests(
            events(
                "GET / HTTP/1.1\r\nConnection: upgrade, Close\r\n\r\n", step: 4096)
        )
        #expect(parsed.first?.keepAlive == false)
        #expect(requests(events("GET / HTTP/1.0\r\n\r\n", step: 4096)).first?.keepAlive == false)
    }

    @Test("accepts a Content-Length repeated with the same value")
    func repeatedLength() {
        let parsed = requests(
            events("POST / HTTP/1.1\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\nok", step: 4096)
        )
        #expect(parsed.first?.body == Array("ok".utf8))
    }

    @Test("stays failed after a failure")
    func failureIsFinal() {
        var parser = HTTPRequestParser(limits: Self.limits)
        parser.append(Array("BROKEN\r\n\r\nGET / HTTP/1.1\r\n\r\n".utf8))
        #expect(parser.nextEvent() == .failure(status: 400))
        #expect(parser.nextEvent() == .failure(status: 400))
    }

    @Test("a head that never ends is cut off at the limit")
    func endlessHead() {
        let endless = "GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 5000)
        #expect(events(endless, step: 100).last == .failure(status: 431))
    }
}
