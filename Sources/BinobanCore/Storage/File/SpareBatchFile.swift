#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file of an uploaded batch, cut to a header and kept for the next batch to use instead of a new file
/// (Decision 0232).
///
/// Creating a file costs the file system far more than renaming one: ext4 looks for a free inode and skips every
/// inode deleted in the last few seconds, reading each one's table block, so a storage that creates and deletes a
/// batch file every 20 events spent about a quarter of its loop's CPU inside `open(O_CREAT)` at 200 events/s. The
/// storage therefore keeps at most one spare: removing a batch renames its file to
/// `<namespace>-<20-digit sequence>.spare` and cuts it to the batch header's length; starting a batch links the
/// spare under the new `.open` name (`link` fails if the name is taken, as `O_EXCL` does) and unlinks the spare
/// name. The cut keeps the header's bytes rather than none: ext4 writes a file back when it is closed after being
/// cut to zero bytes (its guard for programs that replace a file's contents by truncating it), which put a disk
/// write on the loop's thread once per batch.
///
/// A spare holds no event: it is cut before it is kept, and the next open deletes any spare it finds (a spare
/// left whole by a crash between the rename and the cut holds a batch that was already delivered). Its name
/// does not match ``BatchFileName``'s pattern, so nothing that reads batches ever reads it.
enum SpareBatchFile {
    /// The suffix of a spare's name, in place of `.batch`.
    private static let suffix = ".spare"
    private static let finishedSuffix = ".batch"

    /// The spare's name for the file of the finished batch `sequence` in `namespace`.
    static func fileName(sequence: UInt64, namespace: String) -> String {
        let finished = BatchFileName(sequence: sequence, state: .finished).fileName(namespace: namespace)
        return String(finished.dropLast(finishedSuffix.utf8.count)) + suffix
    }

    /// Whether `fileName` is a spare of `namespace`.
    static func isSpare(_ fileName: String, namespace: String) -> Bool {
        guard fileName.hasSuffix(suffix) else { return false }
        let asFinished = String(fileName.dropLast(suffix.utf8.count)) + finishedSuffix
        return BatchFileName(parsing: asFinished, namespace: namespace)?.state == .finished
    }
}

/// The storage's spare: its name, and the descriptor it was kept with when it had been the newest finished batch
/// (its descriptor kept since its finishing, ``FinishedDescriptor``); nil when the file is opened again to be used.
struct SpareFile {
    let name: String
    let descriptor: Int32?
}

/// The descriptor of the newest finished batch, kept open from its finishing to its removal, so that the batch's
/// file becomes the spare, and then the next batch, without being opened again (Decision 0232, second addendum).
struct FinishedDescriptor {
    let sequence: UInt64
    let descriptor: Int32
}

extension POSIXFileSystem {
    /// Renames `name` to `spare` and cuts it to `length` bytes (a batch header's): through `descriptor` when the
    /// file's descriptor was kept (a batch file's descriptor appends, so the next batch's records go after the cut),
    /// else by its path. Returns false when `name` was already gone; throws when the file could not be renamed (it is then
    /// still under `name`). A spare that cannot be cut is deleted, so no spare ever keeps an event. The descriptor
    /// is never closed here.
    func keepAsSpare(
        _ name: String, as spare: String, length: Int, descriptor: Int32?
    ) throws(BinobanFileStorageError) -> Bool {
        do {
            try rename(name, to: spare)
        } catch {
            if error.systemErrorNumber == ENOENT { return false }
            throw error
        }
        let cut: Bool
        if let descriptor {
            cut = retryingOnInterrupt({ ftruncate(descriptor, off_t(length)) }) == 0
        } else {
            cut = retryingOnInterrupt({ Self.systemTruncate(path(spare), to: length) }) == 0
        }
        guard cut else {
            try? removeIfPresent(spare)
            return false
        }
        return true
    }

    /// Gives the spare file the name `name` and opens it for reading and appending; fails with `EEXIST` when
    /// `name` is taken (as ``createExclusive(_:)``), and when the spare is no longer a regular file of the
    /// effective user holding exactly `header` (it is then deleted). The spare's own name is removed on success.
    ///
    /// The spare still holds its batch's header (``keepAsSpare(_:as:length:descriptor:)`` cut the file after it), so the new
    /// batch's header is not written again: the descriptor appends (`O_APPEND`), and the batch's first records go
    /// after the header. The header is read back to check it (a `pread` of the page cache), which costs less than
    /// writing it (a `write` updates the file's times and the journal).
    func reuseSpare(_ spare: String, as name: String, header: [UInt8]) throws(BinobanFileStorageError) -> Int32 {
        let descriptor = retryingOnInterrupt { open(path(spare), O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else { throw failure("open", spare) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == effectiveUser,
            info.st_size == header.count, Self.holds(descriptor, exactly: header)
        else {
            close(descriptor)
            try? removeIfPresent(spare)
            throw BinobanFileStorageError(code: .ioFailure, message: "\(spare) is no longer a spare of this storage")
        }
        guard retryingOnInterrupt({ link(path(spare), path(name)) }) == 0 else {
            let error = failure("link to \(name)", spare)
            close(descriptor)
            throw error
        }
        _ = unlink(path(spare))
        return descriptor
    }

    /// Gives the spare file the name `name` through the descriptor it was kept with (``SpareFile/descriptor``), without
    /// opening it again. Fails with `EEXIST` when `name` is taken (as ``createExclusive(_:)``; the spare and its
    /// descriptor stay as they are, for the next sequence), and when the descriptor's file is no longer the spare
    /// (the link under `name` is then taken back). The descriptor is never closed here; the spare's own name is
    /// removed on success.
    ///
    /// After the `link` the descriptor's file must have exactly two names and hold exactly `header`: a file that
    /// something else put under the spare's name would have been linked instead, and ours would have one name or
    /// none; a process that ignored the storage's lock may have written to it.
    func reuseSpare(
        _ spare: String, keptAs descriptor: Int32, as name: String, header: [UInt8]
    ) throws(BinobanFileStorageError) -> Int32 {
        guard retryingOnInterrupt({ link(path(spare), path(name)) }) == 0 else {
            throw failure("link to \(name)", spare)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink == 2,
            info.st_size == header.count, Self.holds(descriptor, exactly: header)
        else {
            _ = unlink(path(name))
            throw BinobanFileStorageError(
                code: .ioFailure, message: "\(spare) is no longer the spare this storage kept")
        }
        _ = unlink(path(spare))
        return descriptor
    }

    /// Whether the file open at `descriptor` starts with `bytes` (read without moving its offset).
    private static func holds(_ descriptor: Int32, exactly bytes: [UInt8]) -> Bool {
        var found = [UInt8](repeating: 0, count: bytes.count)
        let count = found.count
        let got = found.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            return retryingOnInterrupt { pread(descriptor, base, count, 0) }
        }
        return got == count && found == bytes
    }

    /// `truncate(2)` (the method ``truncate(_:to:name:)`` hides the C function's name here).
    private static func systemTruncate(_ path: String, to length: Int) -> Int32 {
        #if canImport(Darwin)
        return Darwin.truncate(path, off_t(length))
        #elseif canImport(Glibc)
        return Glibc.truncate(path, off_t(length))
        #else
        return Musl.truncate(path, off_t(length))
        #endif
    }
}
