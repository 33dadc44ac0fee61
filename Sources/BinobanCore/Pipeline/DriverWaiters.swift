/// The callers waiting for a moment of the driver's life: the storage opened, the pipeline quiet, the stop.
struct DriverWaiters {
    /// Callers of `start()` that arrived while the first one was opening the storage; `nil` once it is open.
    var start: [CheckedContinuation<Void, Never>]? = []
    var quiet: [CheckedContinuation<Void, Never>] = []
    var finish: [CheckedContinuation<Void, Never>] = []
    /// Callers of `purgeBacklog()`, by the id the machine knows them by.
    private var purges: [UInt64: CheckedContinuation<BinobanPurgeResult, Never>] = [:]
    private var nextPurge: UInt64 = 0

    /// Keeps a purge's caller; returns its id.
    mutating func addPurge(_ continuation: CheckedContinuation<BinobanPurgeResult, Never>) -> UInt64 {
        nextPurge += 1
        purges[nextPurge] = continuation
        return nextPurge
    }

    mutating func resumePurges(_ ids: [UInt64], with result: BinobanPurgeResult) {
        for id in ids { purges.removeValue(forKey: id)?.resume(returning: result) }
    }

    /// The storage is open: every caller of `start()` goes on.
    mutating func opened() {
        for waiter in start ?? [] { waiter.resume() }
        start = nil
    }

    /// The pipeline is quiet.
    mutating func quietened() {
        for waiter in quiet { waiter.resume() }
        quiet = []
    }

    /// The driver stopped: nothing will happen again, so the quiet wait ends too.
    mutating func finished() {
        for waiter in finish + quiet { waiter.resume() }
        (finish, quiet) = ([], [])
        resumePurges(Array(purges.keys), with: BinobanPurgeResult())
    }
}
