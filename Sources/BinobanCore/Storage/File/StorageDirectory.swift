#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Prepares the storage directory: creates what is missing (owner-only), checks that what exists is usable.
enum StorageDirectory {
    /// Creates `path` and any missing parents with permissions 0700, then checks that it is a directory this
    /// process can list, create files in and delete files from. An existing directory's permissions are left as
    /// they are.
    static func prepare(_ path: String) throws(BinobanFileStorageError) {
        try createIfMissing(path)
        var info = stat()
        guard stat(path, &info) == 0 else { throw unusable(path, "cannot be inspected", errno) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw unusable(path, "is not a directory", nil) }
        guard access(path, R_OK | W_OK | X_OK) == 0 else { throw unusable(path, "is not readable and writable", errno) }
    }

    private static func createIfMissing(_ path: String) throws(BinobanFileStorageError) {
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

    private static func unusable(_ path: String, _ reason: String, _ number: Int32?) -> BinobanFileStorageError {
        var message = "the storage directory \(reason)"
        if let number {
            message += ": \(POSIXFileSystem.describe(number))"
        }
        message += " (\(path))"
        return BinobanFileStorageError(code: .directoryUnusable, message: message, systemErrorNumber: number)
    }
}
