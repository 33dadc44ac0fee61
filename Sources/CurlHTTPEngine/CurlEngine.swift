import CCurlShim
import SDKCoreCommon

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's HTTP engine on Linux: libcurl's multi interface, driven by one thread of its own.
///
/// Callers queue a request and suspend; the engine's thread sleeps in `curl_multi_poll` until a socket is ready,
/// libcurl's next timer is due, or a new request wakes it (`curl_multi_wakeup`). Each turn it takes everything
/// queued and every cancellation, lets libcurl move every transfer, and resumes the callers whose transfers
/// finished. A request that waits on a silent server costs no CPU: the thread is asleep in `poll`.
///
/// One engine serves the whole process (``shared``), so every transport shares one thread and one connection
/// cache: connections are matched by scheme, host, port and TLS settings (the CA bundle included), so transports
/// with different bundles never share a connection.
package final class CurlEngine: Sendable {
    /// The process's engine, started at first use; a failure when libcurl cannot be loaded or set up.
    package static let shared: Result<CurlEngine, CurlFailure> = CurlEngine.start()

    private let multi: CurlMultiHandle
    private let inbox: LockedValue<CurlEngineInbox>

    private init(multi: CurlMultiHandle, inbox: LockedValue<CurlEngineInbox>) {
        self.multi = multi
        self.inbox = inbox
    }

    /// Sends `request` and returns the final answer's status and headers.
    ///
    /// - Throws: ``CurlFailure`` when no HTTP answer arrived; `CancellationError` at once when the calling task is
    ///   cancelled (the transfer is then stopped on the engine's thread).
    package func send(_ request: CurlRequest) async throws -> CurlAnswer {
        let id = inbox.withLock { $0.makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CurlEngineInbox.Waiter) in
                let queued = inbox.withLock { $0.queue(id: id, request: request, waiter: continuation) }
                if queued { multi.wake() } else { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let (waiter, wakes) = inbox.withLock { $0.cancel(id: id) }
            waiter?.resume(throwing: CancellationError())
            if wakes { multi.wake() }
        }
    }

    /// Loads libcurl, makes the multi handle and starts the engine's thread.
    private static func start() -> Result<CurlEngine, CurlFailure> {
        guard ccurl_load() == 0, let handle = ccurl_multi_init() else {
            return .failure(CurlFailure(reason: .unavailable, curlCode: nil))
        }
        let multi = CurlMultiHandle(pointer: handle)
        let inbox = LockedValue(CurlEngineInbox())
        let started = DetachedThread.start { CurlEngineLoop(multi: multi.pointer, inbox: inbox).run() }
        guard started else { return .failure(CurlFailure(reason: .other, curlCode: nil)) }
        return .success(CurlEngine(multi: multi, inbox: inbox))
    }
}

/// The state callers and the engine's thread share, under one lock: requests queued, cancellations, and the
/// callers still waiting. A waiter is resumed exactly once, by whoever removes it first (the thread with an
/// outcome, or the cancellation handler).
struct CurlEngineInbox: Sendable {
    typealias Waiter = CheckedContinuation<CurlAnswer, any Error>

    private var lastID: UInt64 = 0
    private(set) var queued: [(id: UInt64, request: CurlRequest)] = []
    private(set) var cancelled: [UInt64] = []
    private var waiters: [UInt64: Waiter] = [:]
    /// Requests given an id whose caller has not queued them yet, and whether each was cancelled meanwhile.
    private var announced: [UInt64: Bool] = [:]

    mutating func makeID() -> UInt64 {
        lastID &+= 1
        announced[lastID] = false
        return lastID
    }

    /// Queues a request; `false` when it was cancelled already.
    mutating func queue(id: UInt64, request: CurlRequest, waiter: Waiter) -> Bool {
        if announced.removeValue(forKey: id) == true { return false }
        waiters[id] = waiter
        queued.append((id, request))
        return true
    }

    /// The waiter to resume with a cancellation, and whether the thread must be woken to stop the transfer.
    mutating func cancel(id: UInt64) -> (Waiter?, Bool) {
        guard let waiter = waiters.removeValue(forKey: id) else {
            // Not queued yet (its caller will see the mark), or finished already (nothing to do).
            if announced[id] != nil { announced[id] = true }
            return (nil, false)
        }
        if let index = queued.firstIndex(where: { $0.id == id }) {
            // Not handed to the thread yet: it is never sent.
            queued.remove(at: index)
            return (waiter, false)
        }
        cancelled.append(id)
        return (waiter, true)
    }

    /// Everything queued and cancelled since the last turn.
    mutating func takeWork() -> (queued: [(id: UInt64, request: CurlRequest)], cancelled: [UInt64]) {
        defer {
            queued.removeAll(keepingCapacity: true)
            cancelled.removeAll(keepingCapacity: true)
        }
        return (queued, cancelled)
    }

    /// The waiter of a finished request, if its caller has not gone.
    mutating func finish(id: UInt64) -> Waiter? {
        waiters.removeValue(forKey: id)
    }
}
