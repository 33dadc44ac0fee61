import CCurlShim
import SDKCoreCommon

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The engine's thread: owns the multi handle's transfers and the spare easy handles. Nothing here is touched by
/// another thread; callers reach it only through the inbox and `curl_multi_wakeup`.
final class CurlEngineLoop {
    /// Easy handles kept for the next requests (each keeps libcurl's per-handle caches warm); more are cleaned up.
    private static let spareLimit = 16
    /// The longest sleep when libcurl has no timer: an idle engine wakes once an hour, to no effect.
    private static let idleWaitMilliseconds: Int32 = 3_600_000

    private let multi: OpaquePointer
    private let inbox: LockedValue<CurlEngineInbox>
    private var transfers: [OpaquePointer: CurlTransfer] = [:]
    private var spares: [OpaquePointer] = []
    /// The header list of the last request started, for the next request that sends the same headers.
    private var lastHeaderList: CurlHeaderList?
    /// The connection cache's size last given to libcurl (`CURLMOPT_MAXCONNECTS`).
    private var cacheLimit = 0
    /// Idle connections the cache keeps beyond those in use. libcurl closes the oldest idle connection when a new
    /// one would pass the limit; counting the transfers in flight on top means requests held open by a stalled
    /// host never push another host's idle connection out, and libcurl's own default (four per transfer in
    /// flight) would keep only four when one request is in flight.
    private static let idleConnections = 128

    init(multi: OpaquePointer, inbox: LockedValue<CurlEngineInbox>) {
        self.multi = multi
        self.inbox = inbox
    }

    /// Runs for the life of the process.
    func run() -> Never {
        _ = ccurl_block_sigpipe()
        ccurl_name_thread("sdkcore-curl")
        while true {
            let work = inbox.withLock { $0.takeWork() }
            for id in work.cancelled { stop(id: id) }
            for (id, request) in work.queued { start(id: id, request: request) }
            sizeCache()
            var running: Int32 = 0
            _ = ccurl_multi_perform(multi, &running)
            var easy: OpaquePointer?
            var code: Int32 = 0
            while ccurl_multi_next_done(multi, &easy, &code) == 1, let done = easy {
                finish(easy: done, code: code)
            }
            var timeout = -1
            _ = ccurl_multi_timeout(multi, &timeout)
            if timeout == 0 { continue }
            let wait = timeout < 0 ? Self.idleWaitMilliseconds : Int32(min(timeout, Int(Self.idleWaitMilliseconds)))
            var ready: Int32 = 0
            _ = ccurl_multi_poll(multi, wait, &ready)
        }
    }

    private func sizeCache() {
        let wanted = transfers.count + Self.idleConnections
        guard wanted != cacheLimit else { return }
        cacheLimit = wanted
        _ = ccurl_multi_setopt_long(multi, CCURL_MOPT_MAXCONNECTS, wanted)
    }

    private func start(id: UInt64, request: CurlRequest) {
        guard let easy = spares.popLast() ?? ccurl_easy_init() else {
            resume(id: id, with: .failure(CurlFailure(reason: .other, curlCode: nil)))
            return
        }
        let transfer = CurlTransfer(id: id, easy: easy)
        if let failure = transfer.configure(request, headers: headerList(for: request.headers)) {
            recycle(easy)
            resume(id: id, with: .failure(failure))
            return
        }
        guard ccurl_multi_add_handle(multi, easy) == 0 else {
            recycle(easy)
            resume(id: id, with: .failure(CurlFailure(reason: .other, curlCode: nil)))
            return
        }
        transfers[easy] = transfer
    }

    /// The last list when `headers` are the same, else a new one (kept for the next request); `nil` when they
    /// cannot be sent.
    private func headerList(for headers: [String: String]) -> CurlHeaderList? {
        if let last = lastHeaderList, last.headers == headers { return last }
        guard let list = CurlHeaderList(headers) else { return nil }
        lastHeaderList = list
        return list
    }

    private func finish(easy: OpaquePointer, code: Int32) {
        guard let transfer = transfers.removeValue(forKey: easy) else { return }
        let outcome = transfer.outcome(code: code)
        transfer.reportEnd()
        _ = ccurl_multi_remove_handle(multi, easy)
        if case .success = outcome {
            recycle(easy)
        } else {
            // libcurl keeps a handle's last socket errno across curl_easy_reset; a fresh handle for the next
            // request keeps a stale ECONNRESET from naming its failure.
            ccurl_easy_cleanup(easy)
        }
        resume(id: transfer.id, with: outcome)
        withExtendedLifetime(transfer) {}
    }

    /// Stops a transfer whose caller was cancelled (and already resumed).
    private func stop(id: UInt64) {
        guard let easy = transfers.first(where: { $0.value.id == id })?.key else { return }
        // Held until the handle is reset: libcurl points at its header list and message buffer until then.
        let transfer = transfers.removeValue(forKey: easy)
        _ = ccurl_multi_remove_handle(multi, easy)
        ccurl_easy_cleanup(easy)
        withExtendedLifetime(transfer) {}
    }

    private func recycle(_ easy: OpaquePointer) {
        ccurl_easy_reset(easy)
        if spares.count < Self.spareLimit {
            spares.append(easy)
        } else {
            ccurl_easy_cleanup(easy)
        }
    }

    private func resume(id: UInt64, with outcome: Result<CurlAnswer, CurlFailure>) {
        let waiter = inbox.withLock { $0.finish(id: id) }
        waiter?.resume(with: outcome.mapError { $0 as any Error })
    }
}
