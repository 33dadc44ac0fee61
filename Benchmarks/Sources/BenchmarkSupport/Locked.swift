import Synchronization

/// A value behind a `Mutex`, as a class so closures and tasks can share it. The package's own lock is `package`
/// access and not reachable from this separate package.
public final class Locked<Value>: Sendable {
    private let mutex: Mutex<Value>

    /// Creates a lock around `value`.
    public init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result: Sendable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try mutex.withLock { (value: inout sending Value) throws(Failure) -> Result in try body(&value) }
    }
}
