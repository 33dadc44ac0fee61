import Testing

@testable import BinobanCore

@Suite("Upload pass machine")
struct UploadPassTests {
    let a = BinobanBatchID(sequence: 1)
    let b = BinobanBatchID(sequence: 2)

    func machine(retries: Int = 3) -> UploadPass {
        UploadPass(maxRetries: retries, backoff: BackoffSchedule(baseMillis: 1000, factor: 2, maxMillis: 60_000))
    }

    @Test("Status classes: 2xx accepted, 4xx rejected except 429, the rest transient")
    func verdicts() {
        #expect(UploadPass.verdict(forStatus: 200) == .accepted)
        #expect(UploadPass.verdict(forStatus: 204) == .accepted)
        #expect(UploadPass.verdict(forStatus: 400) == .rejected)
        #expect(UploadPass.verdict(forStatus: 413) == .rejected)
        #expect(UploadPass.verdict(forStatus: 429) == .transient)
        #expect(UploadPass.verdict(forStatus: 500) == .transient)
        #expect(UploadPass.verdict(forStatus: 503) == .transient)
        #expect(UploadPass.verdict(forStatus: 301) == .transient)
        #expect(UploadPass.verdict(forStatus: 100) == .transient)
    }

    @Test("Batches go one at a time; 2xx deletes and moves on")
    func sequential() {
        var pass = machine()
        #expect(pass.handle(.start([a, b])) == [.send(a)])
        #expect(pass.handle(.response(statusCode: 200, retryAfterSeconds: nil, jitter: 0)) == [.delete(a), .send(b)])
        #expect(pass.handle(.response(statusCode: 201, retryAfterSeconds: nil, jitter: 0)) == [.delete(b), .finished])
        #expect(pass.isFinished)
    }

    @Test("400 drops the batch and continues with the next")
    func dropOn400() {
        var pass = machine()
        _ = pass.handle(.start([a, b]))
        #expect(
            pass.handle(.response(statusCode: 400, retryAfterSeconds: nil, jitter: 0)) == [
                .drop(a, statusCode: 400), .send(b),
            ])
    }

    @Test("Transient failures retry with the full-jitter schedule, then keep the batch and stop the pass")
    func retryScheduleThenKeep() {
        var pass = machine(retries: 3)
        _ = pass.handle(.start([a, b]))
        #expect(
            pass.handle(.response(statusCode: 500, retryAfterSeconds: nil, jitter: 0.5)) == [
                .wait(milliseconds: 500, retry: 1)
            ])
        #expect(pass.handle(.waited) == [.send(a)])
        #expect(pass.handle(.noAnswer(jitter: 0.5)) == [.wait(milliseconds: 1000, retry: 2)])
        #expect(pass.handle(.waited) == [.send(a)])
        #expect(
            pass.handle(.response(statusCode: 429, retryAfterSeconds: nil, jitter: 0.5)) == [
                .wait(milliseconds: 2000, retry: 3)
            ])
        #expect(pass.handle(.waited) == [.send(a)])
        #expect(
            pass.handle(.response(statusCode: 503, retryAfterSeconds: nil, jitter: 0.5)) == [
                .keepAndStop(a, lastStatusCode: 503), .finished,
            ])
        #expect(pass.isFinished)
        #expect(pass.handle(.waited) == [])
    }

    @Test("Retries count per batch: a success resets the budget for the next batch")
    func budgetPerBatch() {
        var pass = machine(retries: 1)
        _ = pass.handle(.start([a, b]))
        #expect(
            pass.handle(.response(statusCode: 500, retryAfterSeconds: nil, jitter: 0)) == [
                .wait(milliseconds: 0, retry: 1)
            ])
        _ = pass.handle(.waited)
        #expect(pass.handle(.response(statusCode: 200, retryAfterSeconds: nil, jitter: 0)) == [.delete(a), .send(b)])
        #expect(
            pass.handle(.response(statusCode: 500, retryAfterSeconds: nil, jitter: 0)) == [
                .wait(milliseconds: 0, retry: 1)
            ])
    }

    @Test("Retry-After is honoured as max(backoff, Retry-After)")
    func retryAfter() {
        var pass = machine()
        _ = pass.handle(.start([a]))
        #expect(
            pass.handle(.response(statusCode: 429, retryAfterSeconds: 7, jitter: 0.5)) == [
                .wait(milliseconds: 7000, retry: 1)
            ])
    }

    @Test("An empty pass finishes at once; zero retries keep at the first failure")
    func edges() {
        var empty = machine()
        #expect(empty.handle(.start([])) == [.finished])
        var noRetry = machine(retries: 0)
        _ = noRetry.handle(.start([a]))
        #expect(noRetry.handle(.noAnswer(jitter: 0.3)) == [.keepAndStop(a, lastStatusCode: nil), .finished])
    }
}
