import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A task delegate that declines every redirect, so a `3xx` reaches the caller as it is instead of being
/// followed (which would turn a `POST` into a `GET` without the body on a `301`/`302`).
package final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    /// Creates a delegate that refuses every redirect.
    override package init() {
        super.init()
    }

    /// Declines the redirect: the task completes with the `3xx` answer itself.
    package func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
