import Synchronization

/// A value behind a `Mutex` for the harness's own counters and job list.
///
/// Defined in this module rather than taken from `BenchmarkSupport`'s `Locked` so the optimizer specializes it:
/// across the module boundary every `withLock` went through `Mutex`'s generic metadata accessor, about 5 500
/// instructions per execute in the caller-run case (callgrind), charged to the SDK under test.
final class HarnessLock<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}
