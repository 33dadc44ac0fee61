/// Decides, as a pure machine, whether the write stage stores the next chunk now or waits for an upload to free
/// room first: the storage caps bound an outage, not a burst.
///
/// The driver feeds it what uploads do and asks it before each append whose chunk would make the storage evict
/// (`Docs/Decisions/0207-binoban-write-waits-for-upload.md`):
/// - uploads working (the last answer delivered or rejected a batch, nothing failed since) → wait for an upload;
///   the events stay in the bounded intake, which drops its oldest (counted) only when it is full itself;
/// - uploads failing (a transient failure pending its retries or backoff, retries used up, no transport, storage
///   unreadable) → write now, and the storage evicts its oldest batches (reported), as during any outage;
/// - uploads impossible (paused, stopping) → write now.
struct WriteAdmission: Sendable, Equatable {
    /// What an upload did.
    enum Input: Sendable, Equatable {
        /// A batch left storage: delivered (2xx) or rejected for good (4xx).
        case batchRemoved
        /// A transient failure (its retries and backoff pending or used up), no transport, or unreadable storage.
        case uploadFailed
    }

    /// What to do with a chunk that does not fit without evicting.
    enum Decision: Sendable, Equatable {
        /// Append now (the storage evicts its oldest batches if it must).
        case write
        /// Ask for an upload and wait for it to free room, then ask again.
        case uploadFirst
    }

    /// Whether uploads are failing: set by a failure, cleared by the next batch that leaves storage.
    private(set) var uploadsFailing = false

    mutating func handle(_ input: Input) {
        switch input {
        case .batchRemoved: uploadsFailing = false
        case .uploadFailed: uploadsFailing = true
        }
    }

    /// The decision for the next chunk.
    ///
    /// - Parameters:
    ///   - hasRoom: the storage can take the chunk without evicting an existing batch.
    ///   - uploadsPossible: uploads may run (the pipeline is enabled, not stopping, and has a transport).
    func decide(hasRoom: Bool, uploadsPossible: Bool) -> Decision {
        guard !hasRoom, uploadsPossible, !uploadsFailing else { return .write }
        return .uploadFirst
    }
}
