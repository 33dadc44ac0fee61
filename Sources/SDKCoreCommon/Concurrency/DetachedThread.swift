#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts detached POSIX threads: the loopback server's accept and connection loops, each Binoban instance's
/// pipeline loop and the libcurl engine's thread. `Foundation.Thread` is not part of FoundationEssentials, and a
/// loop that blocks does not belong on Dispatch's shared pool.
package enum DetachedThread {
    /// The closure a new thread runs, passed through `pthread_create`'s context pointer.
    private final class Entry: Sendable {
        let body: @Sendable () -> Void

        init(_ body: @escaping @Sendable () -> Void) {
            self.body = body
        }
    }

    /// Runs `body` on a new detached thread, with a stack of `stackSize` bytes when given (else the system's
    /// default); `false` when the system refused to create one.
    package static func start(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Entry(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(
            &thread, &attributes,
            { raw in
                #if canImport(Darwin)
                let entry = Unmanaged<Entry>.fromOpaque(raw).takeRetainedValue()
                #else
                guard let raw else { return nil }
                let entry = Unmanaged<Entry>.fromOpaque(raw).takeRetainedValue()
                #endif
                entry.body()
                return nil
            }, context)
        if result != 0 {
            Unmanaged<Entry>.fromOpaque(context).release()
            return false
        }
        return true
    }
}
