import CCurlShim

/// The engine's libcurl multi handle, shared between the engine's thread and the threads that queue requests.
///
/// `@unchecked Sendable` is sound because other threads only call ``wake()`` (`curl_multi_wakeup`, which libcurl
/// documents as safe to call from any thread); every other use of ``pointer`` happens on the engine's thread.
struct CurlMultiHandle: @unchecked Sendable {
    /// The `CURLM *`. Only the engine's thread may use it, except through ``wake()``.
    let pointer: OpaquePointer

    /// Ends the engine thread's `curl_multi_poll` early, so that it takes newly queued work.
    func wake() {
        _ = ccurl_multi_wakeup(pointer)
    }
}
