import Testing

@testable import BinobanCore

@Suite("Upload scheduler (coalescing)")
struct UploadSchedulerTests {
    @Test("A request while idle starts a round; requests while it runs merge into one follow-up round")
    func coalescing() {
        var scheduler = UploadScheduler()
        #expect(scheduler.request(waiterIDs: [], exhaustive: false) == .init(waiterIDs: [], exhaustive: false))
        #expect(scheduler.isRunning)
        #expect(scheduler.request(waiterIDs: [], exhaustive: false) == nil)
        #expect(scheduler.request(waiterIDs: [1], exhaustive: true) == nil)
        #expect(scheduler.request(waiterIDs: [2], exhaustive: false) == nil)
        #expect(scheduler.waitingForNextRound == [1, 2])
        #expect(scheduler.roundFinished() == .init(waiterIDs: [1, 2], exhaustive: true))
        #expect(scheduler.isRunning)
        #expect(scheduler.roundFinished() == nil)
        #expect(!scheduler.isRunning)
        #expect(scheduler.request(waiterIDs: [3], exhaustive: true) == .init(waiterIDs: [3], exhaustive: true))
    }

    @Test("Cancelling returns the follow-up's waiters and leaves the scheduler idle")
    func cancel() {
        var scheduler = UploadScheduler()
        _ = scheduler.request(waiterIDs: [1], exhaustive: true)
        _ = scheduler.request(waiterIDs: [2], exhaustive: true)
        #expect(scheduler.cancel() == [2])
        #expect(!scheduler.isRunning)
        #expect(scheduler.roundFinished() == nil)
    }
}
