import Synchronization

/// A value behind a `Mutex` for the harness's own counters and job list.
///
/// Defined in this module rather than taken from `BenchmarkSupport`'s `Locked` so the optimizer specializes it:
/// across the module boundary every `withLock` would go through `Mutex`'s generic metadata accessor, a cost the
/// caller-run case would charge to the SDK under test (measured in Docs/Performance.md).
final class HarnessLock<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}
