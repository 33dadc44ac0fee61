import BinobanCore
import BinobanCoreURLSession
import Foundation
import Testing

/// Every URLSession exchange of the process shares one deadline timer: a request with a short deadline, sent
/// while the timer waits for a long one, still ends at its own deadline.
@Suite("URLSession exchanges' shared deadline timer")
struct URLSessionDeadlineTests {
    @Test("a 2 s deadline set while a 300 s one is pending ends its request at 2 s, not at 300 s")
    func shortDeadlineAfterALongOne() async throws {
        // A request whose answer never comes before the test ends: its 300 s deadline is the timer's.
        let silent = try ScriptedAnswerServer { _ in Thread.sleep(forTimeInterval: 20) }
        let long = URLSessionEventTransport(requestTimeout: .seconds(300), resourceTimeout: .seconds(300))
        let pending = Task {
            try? await long.send(BinobanTransportRequest(url: silent.url(), headers: [:], body: Data("{}".utf8)))
        }
        defer { pending.cancel() }
        // The long deadline is registered before the request goes out, so it is pending once the request is in.
        // (On a machine too loaded for it to arrive within a minute the order is not sure, and the test still
        // checks that the short deadline ends its request.)
        _ = waitUntil(limitSeconds: 60) { silent.requestCount == 1 }

        let trickle = try ScriptedAnswerServer { write in
            guard write(Array("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n".utf8)) else { return }
            // A byte every 200 ms: neither the no-progress timeout nor FoundationNetworking ends this request.
            for _ in 0..<600 {
                Thread.sleep(forTimeInterval: 0.2)
                guard write([0x61]) else { return }
            }
        }
        let reported = ReportedRequestDurations()
        let short = URLSessionEventTransport(
            session: nil, requestTimeout: .seconds(120), resourceTimeout: .seconds(2), ended: reported.hook)
        let error = await #expect(throws: URLSessionEventTransportError.self) {
            try await short.send(BinobanTransportRequest(url: trickle.url(), headers: [:], body: Data("{}".utf8)))
        }
        // Only the deadline ends this request as a timeout: without it the trickle runs 120 s and the answer ends
        // incomplete (`connectionLost`). The time is the one the transport reported on the thread that ended the
        // request: the test's own task may resume much later when the test process's threads are busy.
        #expect(error?.reason == .timedOut)
        let ended = try #require(await reported.total(), "the transport did not say when the request ended")
        #expect(ended < .seconds(30))
    }
}
