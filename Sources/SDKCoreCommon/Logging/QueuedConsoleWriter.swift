import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes log lines to a file descriptor on a serial queue of its own, so that the thread that logs never waits
/// for the descriptor: a `write` to a terminal, or to a pipe whose reader is slow, blocks until it drains, and a
/// public call that logs (`track()` while debug logs are on) must not block its caller.
///
/// At most `capacity` records wait. A record that finds the queue full is dropped without being formatted and
/// counted; the next record accepted is preceded by one line that says how many were dropped, so lines keep
/// their order and the count is exact. Lines are formatted as ``SDKCoreStreamLogHandler`` formats them.
///
/// Package plumbing (`package` access): hosts that want console output install ``SDKCoreStreamLogHandler``.
package final class QueuedConsoleWriter: Sendable {
    /// The writer for standard output that the SDK's console output goes through.
    package static let standardOutput = QueuedConsoleWriter(descriptor: 1)

    /// How many records wait by default: enough for any burst a developer reads, about 1 MB of lines.
    package static let defaultCapacity = 4096

    private enum Entry: Sendable {
        case record(SDKCoreLogRecord)
        case dropped(count: Int, source: String)
    }

    private struct State: Sendable {
        var pending: [Entry] = []
        /// Records dropped since the last accepted one, and the source of the last of them.
        var dropped = 0
        var droppedSource = ""
        /// Whether the queue holds a drain: set by the record that schedules it, cleared by the drain when empty.
        var draining = false
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let descriptor: Int32
    private let capacity: Int
    private let state = LockedValue(State())
    private let queue: DispatchQueue

    /// Creates a writer for `descriptor` holding at most `capacity` records.
    package init(descriptor: Int32, capacity: Int = QueuedConsoleWriter.defaultCapacity) {
        self.descriptor = descriptor
        self.capacity = max(1, capacity)
        queue = DispatchQueue(label: "sdk-core.console-writer")
    }

    /// Queues the record's line; never waits.
    package func write(_ record: SDKCoreLogRecord) {
        let schedule = state.withLock { state -> Bool in
            guard state.pending.count < capacity else {
                state.dropped += 1
                state.droppedSource = record.source
                return false
            }
            if state.dropped > 0 {
                state.pending.append(.dropped(count: state.dropped, source: state.droppedSource))
                state.dropped = 0
            }
            state.pending.append(.record(record))
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        if schedule { queue.async { self.drain() } }
    }

    /// Returns once every record queued before the call is written, and the count of any dropped since.
    package func written() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                guard state.draining || state.dropped > 0 else { return true }
                state.idleWaiters.append(continuation)
                if !state.draining {
                    // Only a count is left: a drain writes it.
                    state.draining = true
                    queue.async { self.drain() }
                }
                return false
            }
            if idle { continuation.resume() }
        }
    }

    private func drain() {
        while true {
            let (entries, waiters) = state.withLock { state -> ([Entry], [CheckedContinuation<Void, Never>]) in
                if state.pending.isEmpty, state.dropped > 0 {
                    state.pending.append(.dropped(count: state.dropped, source: state.droppedSource))
                    state.dropped = 0
                }
                guard !state.pending.isEmpty else {
                    state.draining = false
                    defer { state.idleWaiters = [] }
                    return ([], state.idleWaiters)
                }
                defer { state.pending = [] }
                return (state.pending, [])
            }
            guard !entries.isEmpty else {
                for waiter in waiters { waiter.resume() }
                return
            }
            var text = ""
            for entry in entries {
                switch entry {
                case .record(let record):
                    text += SDKCoreStreamLogHandler.line(for: record)
                case .dropped(let count, let source):
                    text += "[\(source)] warning: \(count) log lines were dropped: the console did not keep up"
                }
                text += "\n"
            }
            writeAll(Array(text.utf8))
        }
    }

    /// Writes every byte, retrying interrupted and partial writes; gives up on any other error (a closed
    /// descriptor has no reader to tell).
    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}

/// The platform's `write(2)`, named apart from ``QueuedConsoleWriter/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
