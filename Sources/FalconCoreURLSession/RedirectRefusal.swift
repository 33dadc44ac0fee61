import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A task delegate that declines every redirect, so a `3xx` is reported as it is instead of being
/// followed (which would turn a `POST` into a `GET` without the body on a `301`/`302`).
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
