import Foundation
import SDKCoreCommon

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of every session an ``URLSessionExchange`` sends on: it routes URLSession's reports to the
/// request and attempt they concern.
///
/// - A redirect is declined: the `3xx` is the answer (a `301`/`302` would turn a `POST` into a bodiless `GET`,
///   and a cross-origin `307` would carry the `Authorization` header to another host).
/// - A request for the body from its first byte means libcurl is about to re-send the attempt on a fresh
///   connection, which FoundationNetworking would do without the body (Docs/Decisions/0307): the request starts
///   over instead.
/// - When the head of an answer is in, the request decides whether the body is read: a short declared body is
///   (the connection is kept), anything else is not (the task is cancelled, so FoundationNetworking queues no
///   more of it; ``ExchangeCallMachine``). A body that is read is counted, never kept.
final class ExchangeDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// Where a re-send's restart runs: a serial queue of its own, served even when the global queues are busy.
    private static let restarts = DispatchQueue(label: "sdk-core.urlsession-exchange.restarts")

    private let attempts = LockedValue([Int: (call: ExchangeCall, attempt: Int)]())

    /// Routes the reports of `task`, attempt `attempt` of `call`, to the call.
    func register(_ task: URLSessionTask, of call: ExchangeCall, attempt: Int) {
        attempts.withLock { $0[task.taskIdentifier] = (call, attempt) }
    }

    /// Stops routing the reports of `tasks`: their caller has been resumed (a task stopped before it started
    /// never completes, so its completion cannot be relied on to do this).
    func unregister(_ tasks: [URLSessionTask]) {
        attempts.withLock { attempts in
            for task in tasks { attempts[task.taskIdentifier] = nil }
        }
    }

    private func attempt(of task: URLSessionTask) -> (call: ExchangeCall, attempt: Int)? {
        attempts.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
    ) {
        // A stream would not be taken for a `Data` body (FoundationNetworking traps on it); the attempt is
        // stopped and the request sent again instead.
        completionHandler(nil)
        // This runs inside libcurl's seek callback on the task's own queue, where stopping the task (a `sync` onto
        // that queue) would deadlock: the request starts over from another queue.
        if let (call, attempt) = attempt(of: task) {
            ExchangeDelegate.restarts.async { call.handle(.resendRequested(attempt: attempt)) }
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let (call, attempt) = attempt(of: dataTask) else {
            completionHandler(.cancel)
            return
        }
        // FoundationNetworking on Linux ignores the disposition and keeps reading; the call stops the task itself
        // when it takes the head as the answer. Apple platforms honour it.
        completionHandler(call.headArrived(response, attempt: attempt) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if let (call, attempt) = attempt(of: dataTask) {
            call.handle(.receivedBody(attempt: attempt, byteCount: data.count))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let (call, attempt) = attempts.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            call.handle(.completed(attempt: attempt, .failure(URLSessionTransportFailure(classifying: error))))
        } else {
            call.handle(.completed(attempt: attempt, URLSessionExchange.Answer.of(task.response)))
        }
    }
}
