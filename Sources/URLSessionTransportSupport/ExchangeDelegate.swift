import Foundation
import SDKCoreCommon

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of every session an ``URLSessionExchange`` sends on: it routes URLSession's reports to the
/// request they concern.
///
/// - A redirect is declined: the `3xx` is the answer (a `301`/`302` would turn a `POST` into a bodiless `GET`,
///   and a cross-origin `307` would carry the `Authorization` header to another host).
/// - A body stream is handed out again whenever the upload has to start over. libcurl, under
///   FoundationNetworking, re-sends a request on a fresh connection when a reused one turns out to be closed
///   before any answer byte; it then asks for the body from its first byte, and a body that cannot be given
///   again leaves the request headers-only until it times out (Docs/Decisions/0307).
/// - The answer's body is counted, never kept.
final class ExchangeDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let calls = LockedValue([Int: ExchangeCall]())

    /// Routes the reports of `call`'s task to it until it completes.
    func register(_ call: ExchangeCall) {
        calls.withLock { $0[call.taskIdentifier] = call }
    }

    /// Stops routing to `call`: its caller has been resumed (a task stopped before it started never completes,
    /// so its completion cannot be relied on to remove it).
    func unregister(_ call: ExchangeCall) {
        calls.withLock { $0[call.taskIdentifier] = nil }
    }

    private func call(for task: URLSessionTask) -> ExchangeCall? {
        calls.withLock { $0[task.taskIdentifier] }
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
        completionHandler(call(for: task).map { InputStream(data: $0.body) })
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        call(for: dataTask)?.handle(.receivedBody(byteCount: data.count))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let call = calls.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            call.handle(.completed(.failure(URLSessionTransportFailure(classifying: error))))
        } else {
            call.handle(.completed(URLSessionExchange.Answer.of(task.response).mapError { $0 }))
        }
    }
}
