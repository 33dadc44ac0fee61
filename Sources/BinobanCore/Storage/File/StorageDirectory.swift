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

/// Prepares the storage directory: creates what is missing (owner-only), checks that what exists is usable and
/// belongs to this process's user alone.
enum StorageDirectory {
    /// Creates `path` and any missing parents with permissions 0700, then checks that it is a directory owned by
    /// the effective user, not writable by its group or by others, that this process can list, create files in
    /// and delete files from. An existing directory's permissions are left as they are.
    ///
    /// A directory someone else owns, or one that others may write to, is refused: anyone who can write there can
    /// plant a batch (uploaded with this host's API key), an identity (adopted by this host) or a symbolic link.
    /// Only the directory itself is checked, not its parents (a temporary directory under `/tmp` is fine).
    static func prepare(_ path: String) throws(BinobanFileStorageError) {
        try createIfMissing(path)
        var info = stat()
        guard stat(path, &info) == 0 else { throw unusable(path, "cannot be inspected", errno) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw unusable(path, "is not a directory", nil) }
        let user = geteuid()
        guard info.st_uid == user else {
            throw unsafe(path, "is owned by user \(info.st_uid), not by this process's effective user \(user)")
        }
        let mode = info.st_mode & 0o7777
        guard mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw unsafe(path, "is writable by its group or by others (mode \(octal(mode)); 0700 or 0755 is expected)")
        }
        guard access(path, R_OK | W_OK | X_OK) == 0 else { throw unusable(path, "is not readable and writable", errno) }
    }

    /// The device and inode of the directory at `path`, to tell the same directory from one re-created under its
    /// name; `nil` when there is none.
    static func identity(of path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return [UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino)]
    }

    /// The file-system path of a file URL, without trailing slashes.
    static func fileSystemPath(of directory: URL) throws(BinobanFileStorageError) -> String {
        let path =
            directory.isFileURL ? directory.withUnsafeFileSystemRepresentation { $0.map { String(cString: $0) } } : nil
        guard var path, !path.isEmpty else {
            throw BinobanFileStorageError(
                code: .directoryUnusable, message: "the storage directory must be a file URL (\(directory))")
        }
        while path.utf8.count > 1 && path.hasSuffix("/") {
            path.removeLast()
        }
        return path
    }

    /// Creates `path` and every missing parent with permissions 0700 (the umask can only clear bits of it).
    static func createIfMissing(_ path: String) throws(BinobanFileStorageError) {
        var info = stat()
        if stat(path, &info) == 0 { return }
        guard errno == ENOENT else { throw unusable(path, "cannot be inspected", errno) }
        let parent = parentPath(of: path)
        if let parent {
            try createIfMissing(parent)
        }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw unusable(path, "cannot be created", errno)
        }
    }

    /// The parent of `path`, or nil for a root or a single relative component.
    static func parentPath(of path: String) -> String? {
        var bytes = Array(path.utf8)
        while bytes.count > 1 && bytes.last == UInt8(ascii: "/") {
            bytes.removeLast()
        }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        if slash == 0 { return nil }
        return String(decoding: bytes[..<slash], as: UTF8.self)
    }

    private static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.utf8.count)) + digits
    }

    private static func unusable(_ path: String, _ reason: String, _ number: Int32?) -> BinobanFileStorageError {
        var message = "the storage directory \(reason)"
        if let number {
            message += ": \(POSIXFileSystem.describe(number))"
        }
        message += " (\(path))"
        return BinobanFileStorageError(code: .directoryUnusable, message: message, systemErrorNumber: number)
    }

    private static func unsafe(_ path: String, _ reason: String) -> BinobanFileStorageError {
        BinobanFileStorageError(
            code: .unsafeOwnership, message: "the storage directory \(path) \(reason); it is not used")
    }
}
