/// The callers waiting for a moment of the driver's life: the storage opened, the pipeline quiet, the stop.
struct DriverWaiters {
    /// Callers of `start()` that arrived while the first one was opening the storage; `nil` once it is open.
    var start: [CheckedContinuation<Void, Never>]? = []
    var quiet: [CheckedContinuation<Void, Never>] = []
    var finish: [CheckedContinuation<Void, Never>] = []

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
    }
}
