#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The exclusive claim of one process on one namespace of a storage directory: an advisory `flock`
/// (`LOCK_EX | LOCK_NB`) on the file `<namespace>.lock` in the directory, held from ``acquire(directory:namespace:)``
/// until ``release()`` or until the lock is deallocated (the kernel also drops it when the process exits, however
/// it ends).
///
/// Everything that reads or changes a namespace's files (batches, identity, start-up recovery) runs under this
/// lock, so a second process on the same directory and source never renames, appends to or uploads the first
/// one's batches. The lock file holds no data and is never deleted (deleting it would let two processes lock two
/// different files of one name); it is created owner-only (`0600`), never through a symbolic link, and an
/// existing one must be a regular file owned by the effective user.
final class NamespaceLock: Sendable {
    /// The storage directory, as given.
    let directory: String
    /// The lock file's name in the directory.
    let fileName: String
    /// The lock file's path, built once: ``isInPlace`` looks it up at every batch the storage finishes.
    private let path: String
    /// The locked file's device and inode, read when it was locked: the descriptor keeps the inode alive, so no other
    /// file can take its number while the lock is held, and a name that still leads to it is the locked file.
    private let device: dev_t
    private let inode: ino_t
    /// The locked descriptor; `nil` once released.
    private let descriptor: LockedValue<Int32?>

    private init(directory: String, fileName: String, descriptor: Int32, device: dev_t, inode: ino_t) {
        self.directory = directory
        self.fileName = fileName
        path = directory + "/" + fileName
        self.device = device
        self.inode = inode
        self.descriptor = LockedValue(descriptor)
    }

    deinit {
        release()
    }

    /// The lock file's name for `namespace`.
    static func fileName(namespace: String) -> String {
        "\(namespace).lock"
    }

    /// Prepares the directory (``StorageDirectory/prepare(_:)``: created 0700 when missing, refused when it is not
    /// the effective user's alone) and takes the namespace's lock.
    ///
    /// - Throws: ``BinobanFileStorageError`` with code `directoryInUse` when another instance or process holds the
    ///   lock, `unsafeOwnership` for a directory or lock file that is not the user's, `directoryUnusable` when the
    ///   directory cannot be used or locked, `invalidNamespace` for a bad namespace. Every message but the last
    ///   names the directory.
    static func acquire(directory url: URL, namespace: String) throws(BinobanFileStorageError) -> NamespaceLock {
        guard BatchFileName.isValidNamespace(namespace) else {
            throw BinobanFileStorageError(
                code: .invalidNamespace,
                message: "the namespace must be 1 to 100 ASCII letters, digits, '_', '-' or '.', not starting with '.'"
            )
        }
        let path = try StorageDirectory.fileSystemPath(of: url)
        try StorageDirectory.prepare(path)
        return try acquire(path: path, namespace: namespace)
    }

    /// Takes the lock of `namespace` in the prepared directory `path`.
    static func acquire(path: String, namespace: String) throws(BinobanFileStorageError) -> NamespaceLock {
        let name = fileName(namespace: namespace)
        let filePath = path + "/" + name
        // Non-blocking: a FIFO planted under the name cannot hang the open. Read-only: `flock` needs no more, and
        // the file is never written.
        let flags = O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        let descriptor = retryingOnInterrupt { open(filePath, flags, 0o600) }
        guard descriptor >= 0 else {
            let number = errno
            if number == ELOOP {
                throw failure(.unsafeOwnership, "\(name) in the storage directory \(path) is a symbolic link", nil)
            }
            throw failure(.directoryUnusable, "the lock file \(name) cannot be opened in \(path)", number)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let number = errno
            close(descriptor)
            throw failure(.directoryUnusable, "the lock file \(name) cannot be inspected in \(path)", number)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid() else {
            close(descriptor)
            throw failure(
                .unsafeOwnership,
                "\(name) in the storage directory \(path) is not a regular file of this process's user", nil)
        }
        guard retryingOnInterrupt({ flock(descriptor, LOCK_EX | LOCK_NB) }) == 0 else {
            let number = errno
            close(descriptor)
            if number == EWOULDBLOCK {
                throw failure(
                    .directoryInUse,
                    "another instance (in this process or another one) uses the storage directory \(path) for "
                        + "namespace \(namespace)", nil)
            }
            throw failure(.directoryUnusable, "the storage directory \(path) cannot be locked (\(name))", number)
        }
        return NamespaceLock(
            directory: path, fileName: name, descriptor: descriptor, device: info.st_dev, inode: info.st_ino)
    }

    /// Whether the lock is still held by this object.
    var isHeld: Bool { descriptor.withLock { $0 != nil } }

    /// Whether the locked file is still the one named `<namespace>.lock` in the directory: `false` once the lock
    /// file or its directory was removed (or replaced), when the lock no longer keeps anyone else out.
    ///
    /// One `lstat` of the name, compared with the locked file's device and inode read when it was locked (the storage
    /// asks at every batch it finishes; an `fstat` of the descriptor each time told nothing more).
    var isInPlace: Bool {
        descriptor.withLock { held -> Bool in
            guard held != nil else { return false }
            var named = stat()
            guard lstat(path, &named) == 0 else { return false }
            return named.st_dev == device && named.st_ino == inode
        }
    }

    /// Gives the lock up (closing the descriptor drops the `flock`). Calling it again does nothing.
    func release() {
        let held = descriptor.withLock { value -> Int32? in
            defer { value = nil }
            return value
        }
        if let held { close(held) }
    }

    private static func failure(
        _ code: BinobanFileStorageError.Code, _ message: String, _ number: Int32?
    ) -> BinobanFileStorageError {
        var text = message
        if let number { text += ": \(POSIXFileSystem.describe(number))" }
        return BinobanFileStorageError(code: code, message: text, systemErrorNumber: number)
    }
}
