import Foundation
import Testing

/// Hostile cases whose failure would take the process down or grow it without bound: each runs in a child process
/// (the `TransportProbe` helper), whose exit and resource use the test reads.
@Suite(
    "Transports against hostile servers, in a child process (127.0.0.1)",
    .enabled(if: TransportProbeRun.executable != nil, "the TransportProbe executable was not built"))
struct HostileProcessTests {
    @Test("FoundationNetworking traps on a close after the status line and before Content-Length, and only there")
    func foundationNetworkingTraps() async throws {
        // swift-corelibs-foundation issue 5285. Should this fail because nothing traps any more, the cases can run
        // in the test process (HostileCase.trapsFoundationNetworking).
        let peer = try await HostilePeer.shared()
        let closes = HostileCase.closes
        // Every trapping close point, and the close points on either side of the range.
        let trapping = closes.indices.filter { closes[$0].trapsFoundationNetworking }
        let first = try #require(trapping.first)
        let last = try #require(trapping.last)
        let probed = Array(trapping) + [first - 1, last + 1]
        let results = try await withThrowingTaskGroup(of: (Int, TransportProbeRun).self) { group in
            var results: [Int: TransportProbeRun] = [:]
            var pending = probed[...]
            func startNext() async throws {
                guard let index = pending.popFirst() else { return }
                let listener = try await peer.open(closes[index].spec)
                group.addTask {
                    (index, try await TransportProbeRun.run("urlsession", timeout: .seconds(5), urls: [listener.url()]))
                }
            }
            for _ in 0..<4 { try await startNext() }
            while let (index, run) = try await group.next() {
                results[index] = run
                try await startNext()
            }
            return results
        }

        for index in probed {
            let run = try #require(results[index])
            #expect(run.trapped == closes[index].trapsFoundationNetworking, "\(closes[index].name): \(run)")
        }
    }

    @Test(
        "an endless or 2 000 MiB answer is answered and grows the peak memory by 16 MiB at most",
        arguments: TransportSubject.all.filter(\.boundsAnswerMemory), HostileCase.all.filter(\.hasEndlessBody))
    func answerMemoryIsBounded(subject: TransportSubject, hostile: HostileCase) async throws {
        guard subject.trustsCustomCA || !hostile.needsTrustedCA else { return }
        let peer = try await HostilePeer.shared()
        // A first request on the connection (libraries, buffers and the connection set up), then the hostile one.
        var spec = hostile.spec
        spec.steps.insert(.answer("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"), at: 0)
        let listener = try await peer.open(spec)

        let run = try await TransportProbeRun.run(
            subject.name, timeout: HostileCase.timeout, caFile: subject.trustsCustomCA ? peer.caFile : nil,
            urls: [hostile.url(on: listener), hostile.url(on: listener)])

        #expect(!run.trapped)
        #expect(run.outcomes == [.answer(200), .answer(202)])
        let growth = try #require(run.peakGrowthKilobytes)
        #expect(growth <= 16 * 1024, "peak resident size grew by \(growth) KiB")
    }

    @Test(
        "a request that waits 3 s on a peer that never answers costs the process under 100 ms of CPU",
        arguments: TransportSubject.all.filter(\.waitsWithoutCPU))
    func waitingCostsNoCPU(subject: TransportSubject) async throws {
        let peer = try await HostilePeer.shared()
        let listener = try await peer.open(HostileListenerSpec(steps: [HostileStep(end: .silence)]))

        // CPU time, not wall time: a loaded machine stretches neither the wait nor the figure much.
        let run = try await TransportProbeRun.run(subject.name, timeout: .seconds(3), urls: [listener.url()])

        #expect(!run.trapped)
        #expect(run.outcomes.count == 1)
        if case .failure(let reason) = run.outcomes.first {
            #expect(subject.kindsOf(reason).contains(.timeout), "\(reason)")
        } else {
            Issue.record("an answer from a peer that never answers: \(run.outcomes)")
        }
        let cpu = try #require(run.cpuMicroseconds)
        #expect(cpu < 100_000, "\(cpu) µs of CPU while waiting 3 s")
    }
}
