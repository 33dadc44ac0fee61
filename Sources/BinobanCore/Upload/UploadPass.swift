/// One flush's upload as a pure machine: batches one at a time, retries with backoff, and the verdict of each
/// status class. The driver performs the actions and feeds the outcomes back.
struct UploadPass: Sendable {
    enum Input: Sendable, Equatable {
        /// The batches to upload, oldest first (at most `maxFilesPerFlush`).
        case start([BinobanBatchID])
        /// The server answered. `jitter` is a fresh uniform draw in `0..<1` for a possible backoff.
        case response(statusCode: Int, retryAfterSeconds: Double?, jitter: Double)
        /// No answer arrived (the transport threw).
        case noAnswer(jitter: Double)
        /// The backoff delay elapsed.
        case waited
    }

    enum Action: Sendable, Equatable {
        /// Read the batch, stamp `sentAt` and send it.
        case send(BinobanBatchID)
        /// The batch was accepted: delete it.
        case delete(BinobanBatchID)
        /// The batch was rejected for good (4xx other than 429): delete it and report.
        case drop(BinobanBatchID, statusCode: Int)
        /// Wait before retrying the current batch.
        case wait(milliseconds: Int, retry: Int)
        /// Retries are used up: keep the batch for a later flush and stop this pass.
        case keepAndStop(BinobanBatchID, lastStatusCode: Int?)
        /// The pass is over.
        case finished
    }

    enum Verdict: Sendable, Equatable {
        case accepted
        case rejected
        case transient
    }

    let maxRetries: Int
    let backoff: BackoffSchedule
    private var queue: [BinobanBatchID] = []
    private var current: BinobanBatchID?
    private var retriesUsed = 0
    private(set) var isFinished = false

    init(maxRetries: Int, backoff: BackoffSchedule) {
        self.maxRetries = maxRetries
        self.backoff = backoff
    }

    /// 2xx accepted; 4xx other than 429 rejected; 429, 5xx, 3xx and anything else transient.
    static func verdict(forStatus status: Int) -> Verdict {
        switch status {
        case 200..<300: return .accepted
        case 429: return .transient
        case 400..<500: return .rejected
        default: return .transient
        }
    }

    mutating func handle(_ input: Input) -> [Action] {
        guard !isFinished else { return [] }
        switch input {
        case .start(let batches):
            queue = batches
            return advance()
        case .response(let status, let retryAfter, let jitter):
            guard let batch = current else { return [] }
            switch Self.verdict(forStatus: status) {
            case .accepted:
                return [.delete(batch)] + advance()
            case .rejected:
                return [.drop(batch, statusCode: status)] + advance()
            case .transient:
                return transientFailure(of: batch, status: status, retryAfter: retryAfter, jitter: jitter)
            }
        case .noAnswer(let jitter):
            guard let batch = current else { return [] }
            return transientFailure(of: batch, status: nil, retryAfter: nil, jitter: jitter)
        case .waited:
            guard let batch = current else { return [] }
            return [.send(batch)]
        }
    }

    private mutating func transientFailure(
        of batch: BinobanBatchID,
        status: Int?,
        retryAfter: Double?,
        jitter: Double
    ) -> [Action] {
        guard retriesUsed < maxRetries else {
            isFinished = true
            current = nil
            return [.keepAndStop(batch, lastStatusCode: status), .finished]
        }
        retriesUsed += 1
        let delay = backoff.delayMillis(forRetry: retriesUsed, jitter: jitter, retryAfterSeconds: retryAfter)
        return [.wait(milliseconds: delay, retry: retriesUsed)]
    }

    private mutating func advance() -> [Action] {
        retriesUsed = 0
        guard !queue.isEmpty else {
            current = nil
            isFinished = true
            return [.finished]
        }
        let next = queue.removeFirst()
        current = next
        return [.send(next)]
    }
}
