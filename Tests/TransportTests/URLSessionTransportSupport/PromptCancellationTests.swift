import SDKCoreCommon
import Testing
import URLSessionTransportSupport

/// A cancelled caller is let go at once even when the operation ignores cancellation, as FoundationNetworking's
/// `URLSession` sometimes does (the cause of the flaky "rethrows the cancellation" transport test).
@Suite("PromptCancellation")
struct PromptCancellationTests {
    /// An operation that ignores cancellation and finishes only when the test says so.
    final class StubbornOperation: Sendable {
        private let state = LockedValue<(started: Bool, finish: CheckedContinuation<Void, Never>?, cancelled: Bool)>(
            (false, nil, false))

        func run() async -> Int {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    state.withLock {
                        $0.started = true
                        $0.finish = continuation
                    }
                }
            } onCancel: {
                state.withLock { $0.cancelled = true }
            }
            return 200
        }

        var started: Bool { state.withLock { $0.started } }
        var sawCancellation: Bool { state.withLock { $0.cancelled } }

        func finish() {
            let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.finish = nil }
                return state.finish
            }
            continuation?.resume()
        }
    }

    @Test("the operation's answer comes back when nobody cancels")
    func answer() async throws {
        let value = try await PromptCancellation.run { 42 }
        #expect(value == 42)
    }

    @Test("the operation's error comes back as it is")
    func error() async throws {
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await PromptCancellation.run { () async throws -> Int in throw Refused() }
        }
    }

    @Test("a cancelled caller gets CancellationError while the operation still runs, and the operation is cancelled")
    func cancelledWhileRunning() async throws {
        let operation = StubbornOperation()
        let caller = Task { try await PromptCancellation.run { await operation.run() } }
        while !operation.started { await Task.yield() }

        caller.cancel()

        await #expect(throws: CancellationError.self) { try await caller.value }
        while !operation.sawCancellation { await Task.yield() }
        operation.finish()
    }

    @Test("a caller cancelled before the call starts gets CancellationError")
    func cancelledBeforeStart() async throws {
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await PromptCancellation.run { 1 }
        }
        await #expect(throws: CancellationError.self) { try await caller.value }
    }
}
