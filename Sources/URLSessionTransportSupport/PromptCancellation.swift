import SDKCoreCommon

/// Runs an operation in a task of its own and lets the caller go with `CancellationError` the moment the
/// calling task is cancelled, whether or not the operation has stopped by then.
///
/// FoundationNetworking's `URLSession.data(for:delegate:)` does not always stop a request when its task is
/// cancelled: in about one run in fifty a held request went on until the server answered 30 s later (the
/// flaky "rethrows the cancellation" transport test). A transport must not keep its caller waiting for that,
/// so the operation's task is cancelled (which asks URLSession to stop) and the caller is resumed at once;
/// whatever the operation returns afterwards is dropped.
package enum PromptCancellation {
    /// Returns what `operation` returns, or throws `CancellationError` as soon as the calling task is
    /// cancelled.
    package static func run<Success: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Success
    ) async throws -> Success {
        let race = Race<Success>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(continuation, operation: operation)
            }
        } onCancel: {
            race.cancel()
        }
    }

    /// Who resumes the caller first: the operation finishing or the caller's cancellation.
    private enum State<Success: Sendable> {
        case notStarted
        case running(CheckedContinuation<Success, any Error>, Task<Void, Never>)
        case cancelledBeforeStart
        case finished
    }

    private final class Race<Success: Sendable>: Sendable {
        private let state = LockedValue(State<Success>.notStarted)

        func start(
            _ continuation: CheckedContinuation<Success, any Error>,
            operation: @escaping @Sendable () async throws -> Success
        ) {
            let alreadyCancelled = state.withLock { state -> Bool in
                guard case .notStarted = state else { return true }
                let task = Task { [self] in
                    do {
                        finish(with: .success(try await operation()))
                    } catch {
                        finish(with: .failure(error))
                    }
                }
                state = .running(continuation, task)
                return false
            }
            if alreadyCancelled {
                continuation.resume(throwing: CancellationError())
            }
        }

        func cancel() {
            let resume: (CheckedContinuation<Success, any Error>, Task<Void, Never>)? = state.withLock { state in
                switch state {
                case .notStarted:
                    state = .cancelledBeforeStart
                    return nil
                case .running(let continuation, let task):
                    state = .finished
                    return (continuation, task)
                case .cancelledBeforeStart, .finished:
                    return nil
                }
            }
            guard let (continuation, task) = resume else { return }
            task.cancel()
            continuation.resume(throwing: CancellationError())
        }

        private func finish(with result: Result<Success, any Error>) {
            let continuation: CheckedContinuation<Success, any Error>? = state.withLock { state in
                guard case .running(let continuation, _) = state else { return nil }
                state = .finished
                return continuation
            }
            continuation?.resume(with: result)
        }
    }
}
