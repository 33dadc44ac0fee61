#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An instance's claim on its storage directory and namespace: the claim in this process (``StorageLocation``)
/// and the namespace lock that keeps other processes out. Taken when the instance is created, taken again when
/// its storage goes back to disk after a fallback to memory, and given up when the instance stops, after which it
/// is never taken again.
final class StorageDirectoryClaim: Sendable {
    /// The storage directory.
    let directory: URL
    /// The namespace (derived from the source identifier).
    let namespace: String
    private let state: LockedValue<State>

    private struct State {
        var lock: NamespaceLock?
        var claimedInProcess = false
        var released = false
    }

    /// A claim on `directory` and `namespace`; `lock` when the instance took it already (at creation), with the
    /// process-wide claim that came before it.
    init(directory: URL, namespace: String, lock: NamespaceLock?) {
        self.directory = directory
        self.namespace = namespace
        state = LockedValue(State(lock: lock, claimedInProcess: lock != nil))
    }

    /// The namespace lock, taken now if it is not held (or no longer keeps anyone out: its file or directory was
    /// removed, so the directory is prepared again and the lock taken anew).
    ///
    /// - Throws: ``BinobanFileStorageError``: `directoryInUse` while another instance (in this process or another
    ///   one) holds the namespace, or once the claim was released; the other codes of
    ///   ``NamespaceLock/acquire(directory:namespace:)``.
    func take() throws(BinobanFileStorageError) -> NamespaceLock {
        let result = state.withLock { state -> Result<NamespaceLock, BinobanFileStorageError> in
            guard !state.released else {
                return .failure(BinobanFileStorageError(code: .directoryInUse, message: "the instance has stopped"))
            }
            if let lock = state.lock, lock.isInPlace { return .success(lock) }
            state.lock?.release()
            state.lock = nil
            if !state.claimedInProcess {
                guard StorageLocation.claim(directory: directory, namespace: namespace) else {
                    return .failure(
                        BinobanFileStorageError(
                            code: .directoryInUse,
                            message: "another instance in this process uses the storage directory \(directory.path) "
                                + "for the same source"))
                }
                state.claimedInProcess = true
            }
            do throws(BinobanFileStorageError) {
                let lock = try NamespaceLock.acquire(directory: directory, namespace: namespace)
                state.lock = lock
                return .success(lock)
            } catch {
                // Another process holds it (or the directory is unusable): the next try claims again.
                StorageLocation.release(directory: directory, namespace: namespace)
                state.claimedInProcess = false
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Whether the namespace lock is held and still keeps the directory (its file and directory were not removed).
    var lockIsInPlace: Bool { state.withLock { $0.lock?.isInPlace ?? false } }

    /// Gives up the lock and the process-wide claim for good (the instance stopped).
    func release() {
        state.withLock { state in
            state.released = true
            state.lock?.release()
            state.lock = nil
            if state.claimedInProcess {
                StorageLocation.release(directory: directory, namespace: namespace)
                state.claimedInProcess = false
            }
        }
    }
}
