#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX calls the file storage makes, each turning a failure into a thrown
/// ``BinobanFileStorageError`` that names the operation and the file relative to the storage directory.
///
/// Paths are built as `<directory>/<name>`; `name` is what error messages show.
struct POSIXFileSystem: Sendable {
    /// The storage directory, without a trailing slash.
    let directory: String
    /// The effective user, read once: the owner the hot paths (each batch turnover, each read back) check files
    /// against, without a `geteuid` call each time.
    let effectiveUser: uid_t = geteuid()

    /// The absolute or relative path of `name` in the directory.
    func path(_ name: String) -> String {
        directory + "/" + name
    }

    /// Creates `name` for writing; fails (`EEXIST`) if anything exists under that name, a symbolic link included,
    /// which is never followed. Permissions exactly 0600, whatever the umask. With `appending`, every write goes to
    /// the file's end (`O_APPEND`), also after the file was cut: a batch file's descriptor is kept for the next batch
    /// once the file is cut to its header (``keepAsSpare(_:as:length:descriptor:)``).
    func createExclusive(_ name: String, appending: Bool = false) throws(BinobanFileStorageError) -> Int32 {
        // Read and write: a batch whose directory was removed is read back through this descriptor.
        let flags = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | (appending ? O_APPEND : 0)
        let descriptor = retryingOnInterrupt { open(path(name), flags, 0o600) }
        guard descriptor >= 0 else { throw failure("create", name) }
        // The umask can only clear bits of 0600; set the mode exactly so the owner can always read the file back.
        guard fchmod(descriptor, 0o600) == 0 else {
            let error = failure("chmod", name)
            close(descriptor)
            _ = unlink(path(name))
            throw error
        }
        return descriptor
    }

    /// Whether anything (a file, a directory, a symbolic link) exists under `name`.
    func exists(_ name: String) -> Bool {
        var info = stat()
        return lstat(path(name), &info) == 0
    }

    /// The size of the regular file under `name` when it is owned by the effective user (without following a
    /// symbolic link); nil for anything else: a missing file, another kind of file, another user's, a failed
    /// `lstat`. One system call.
    func ownRegularFileSize(_ name: String) -> Int? {
        var info = stat()
        guard lstat(path(name), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == effectiveUser else {
            return nil
        }
        return Int(clamping: info.st_size)
    }

    /// The size of the regular file open at `descriptor`, or nil when it has no name left (deleted, or replaced by a
    /// rename over it). One system call, no path lookup.
    func linkedFileSize(_ descriptor: Int32) -> Int? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink > 0 else { return nil }
        return Int(clamping: info.st_size)
    }

    /// Writes all of `bytes` at the descriptor's offset, continuing after short writes.
    func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, name: String) throws(BinobanFileStorageError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = retryingOnInterrupt { write(descriptor, base + offset, bytes.count - offset) }
            guard written > 0 else { throw failure("write", name) }
            offset += written
        }
    }

    /// Writes all of `bytes` at the descriptor's offset, continuing after short writes.
    func writeAll(_ descriptor: Int32, _ bytes: [UInt8], name: String) throws(BinobanFileStorageError) {
        let failure = bytes.withUnsafeBytes { raw -> BinobanFileStorageError? in
            do throws(BinobanFileStorageError) {
                try writeAll(descriptor, raw, name: name)
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            throw failure
        }
    }

    /// Flushes the descriptor's data (and the size, which reading it back needs) to the device.
    func synchronize(_ descriptor: Int32, name: String) throws(BinobanFileStorageError) {
        #if canImport(Darwin)
        let result = retryingOnInterrupt { fsync(descriptor) }
        #else
        let result = retryingOnInterrupt { fdatasync(descriptor) }
        #endif
        guard result == 0 else { throw failure("fsync", name) }
    }

    /// Cuts the open descriptor's file to `length` bytes and moves the write offset there.
    func truncate(_ descriptor: Int32, to length: Int, name: String) throws(BinobanFileStorageError) {
        guard retryingOnInterrupt({ ftruncate(descriptor, off_t(length)) }) == 0,
            lseek(descriptor, off_t(length), SEEK_SET) >= 0
        else { throw failure("truncate", name) }
    }

    /// Renames `from` to `to` atomically within the directory.
    func rename(_ from: String, to: String) throws(BinobanFileStorageError) {
        guard retryingOnInterrupt({ Self.systemRename(path(from), path(to)) }) == 0 else {
            throw failure("rename to \(to)", from)
        }
    }

    /// The first `length` bytes of the file open at `descriptor`, read from its start without moving its offset
    /// (the file may have been unlinked or its directory removed: the descriptor still reaches its data).
    func readFromStart(_ descriptor: Int32, length: Int, name: String) throws(BinobanFileStorageError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, length))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.count
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return retryingOnInterrupt { pread(descriptor, base + filled, count - filled, off_t(filled)) }
            }
            guard got >= 0 else { throw failure("read", name) }
            if got == 0 { break }
            filled += got
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Deletes `name`; a file that is already gone is not an error.
    func removeIfPresent(_ name: String) throws(BinobanFileStorageError) {
        guard unlink(path(name)) == 0 || errno == ENOENT else { throw failure("unlink", name) }
    }

    /// The first `maxBytes` bytes of the regular file `name` and the file's size, or nil when it is missing or not a
    /// regular file (a directory, a symbolic link, a FIFO, a device), which the storage never touches.
    ///
    /// The file is opened non-blocking (a FIFO with our name cannot hang the open) and without following links. A
    /// file owned by another user than the effective one is not read: it throws `unsafeOwnership`.
    func readRegularFile(
        _ name: String, maxBytes: Int
    ) throws(BinobanFileStorageError) -> (bytes: [UInt8], fileSize: Int)? {
        let flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        let descriptor = retryingOnInterrupt { open(path(name), flags) }
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ELOOP { return nil }
            throw failure("open", name)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("stat", name) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        guard info.st_uid == geteuid() else {
            throw BinobanFileStorageError(
                code: .unsafeOwnership,
                message: "\(name) is owned by user \(info.st_uid), not by this process's user; not read")
        }
        let limit = max(0, maxBytes)
        var bytes = [UInt8](repeating: 0, count: min(Int(clamping: info.st_size), limit))
        var filled = 0
        while filled < limit {
            if filled == bytes.count {
                // Everything fstat announced is read. A small read tells end of file from a file that grew
                // since; growing the buffer first would zero 64 KiB for every small file (an identity file is
                // a few hundred bytes, read at every `create`).
                let probe = try readProbe(descriptor, limit: min(Self.probeBytes, limit - filled), name: name)
                if probe.isEmpty { break }
                bytes.append(contentsOf: probe)
                filled += probe.count
                if filled < limit { bytes.append(contentsOf: repeatElement(0, count: min(65_536, limit - filled))) }
                continue
            }
            let count = bytes.count
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return retryingOnInterrupt { read(descriptor, base + filled, count - filled) }
            }
            guard got >= 0 else { throw failure("read", name) }
            if got == 0 { break }
            filled += got
        }
        bytes.removeSubrange(filled...)
        return (bytes, max(filled, Int(clamping: info.st_size)))
    }

    /// How much `readRegularFile` reads past the size `fstat` gave, to tell end of file from a file that grew.
    private static let probeBytes = 512

    /// Reads up to `limit` bytes into a fresh array (empty at end of file).
    private func readProbe(
        _ descriptor: Int32, limit: Int, name: String
    ) throws(BinobanFileStorageError) -> [UInt8] {
        var probe = [UInt8](repeating: 0, count: limit)
        let got = probe.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            return retryingOnInterrupt { read(descriptor, base, limit) }
        }
        guard got >= 0 else { throw failure("read", name) }
        probe.removeSubrange(got...)
        return probe
    }

    /// Opens the regular file `name` for repair (read and write, never following a symbolic link).
    func openForRepair(_ name: String) throws(BinobanFileStorageError) -> Int32 {
        let descriptor = retryingOnInterrupt { open(path(name), O_RDWR | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else { throw failure("open for repair", name) }
        return descriptor
    }

    /// The names in the directory (not `.` or `..`).
    func listNames() throws(BinobanFileStorageError) -> [String] {
        guard let stream = opendir(directory) else { throw failure("list", ".") }
        defer { closedir(stream) }
        var names: [String] = []
        // The name is read in place, up to its terminator: glibc allocates a record only as long as its name, so
        // copying the whole `d_name` array (256 bytes) read past the end of the last record (found by fuzzing).
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
        while let entry = readdir(stream) {
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." {
                names.append(name)
            }
        }
        return names
    }

    /// An error for the POSIX call `operation` on `name` that just failed, reading `errno`.
    func failure(_ operation: String, _ name: String) -> BinobanFileStorageError {
        let number = errno
        return BinobanFileStorageError(
            code: .ioFailure,
            message: "\(operation) \(name) failed: \(Self.describe(number))",
            systemErrorNumber: number
        )
    }

    /// The system's text for an error number.
    static func describe(_ number: Int32) -> String {
        guard let text = strerror(number) else { return "error \(number)" }
        return String(cString: text)
    }

    private static func systemRename(_ from: String, _ to: String) -> Int32 {
        #if canImport(Darwin)
        return Darwin.rename(from, to)
        #elseif canImport(Glibc)
        return Glibc.rename(from, to)
        #else
        return Musl.rename(from, to)
        #endif
    }
}

/// Runs `call` again while it fails with `EINTR`.
func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result < 0 && errno == EINTR {
            continue
        }
        return result
    }
}
