#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Small files beside the batches that belong to the directory's owner alone (the `sdkcore binoban send`
/// checkpoint): replaced atomically through an owner-only temporary, read only when they are the effective user's
/// regular files.
///
/// Meant for a directory whose namespace lock the caller holds (``BinobanFileEventStorage`` holds it), so no other
/// writer uses the temporary's name.
package enum OwnerOnlyFile {
    /// Replaces `name` in `directory` with `bytes`: writes them to `<name>.tmp`, created exclusively (`O_CREAT |
    /// O_EXCL`) with mode 0600 and never through a symbolic link, then renames it over `name`. Whatever is found
    /// at the temporary's name (a leftover of a killed run, a planted link) is removed first, never followed or
    /// written; a kill at any moment leaves the old or the new content under `name`.
    package static func replace(
        _ name: String, in directory: String, with bytes: [UInt8]
    ) throws(BinobanFileStorageError) {
        let files = POSIXFileSystem(directory: directory)
        let temporary = name + ".tmp"
        let descriptor: Int32
        do {
            descriptor = try files.createExclusive(temporary)
        } catch {
            guard error.systemErrorNumber == EEXIST else { throw error }
            try files.removeIfPresent(temporary)
            descriptor = try files.createExclusive(temporary)
        }
        do {
            try files.writeAll(descriptor, bytes, name: temporary)
        } catch {
            close(descriptor)
            _ = unlink(files.path(temporary))
            throw error
        }
        guard close(descriptor) == 0 else {
            let error = files.failure("close", temporary)
            _ = unlink(files.path(temporary))
            throw error
        }
        do {
            try files.rename(temporary, to: name)
        } catch {
            _ = unlink(files.path(temporary))
            throw error
        }
    }

    /// The content of `name` in `directory`, at most `maxBytes` of it, or `nil` when nothing exists under the
    /// name.
    ///
    /// - Throws: ``BinobanFileStorageError`` with code `unsafeOwnership` when the name holds something other than a
    ///   regular file (a symbolic link, a directory, a FIFO; never followed or opened for reading) or a file owned
    ///   by another user (never read); `ioFailure` when it cannot be read.
    package static func read(
        _ name: String, in directory: String, maxBytes: Int
    ) throws(BinobanFileStorageError) -> [UInt8]? {
        let files = POSIXFileSystem(directory: directory)
        if let (bytes, _) = try files.readRegularFile(name, maxBytes: maxBytes) { return bytes }
        guard files.exists(name) else { return nil }
        throw BinobanFileStorageError(
            code: .unsafeOwnership, message: "\(name) is not a regular file; not read")
    }
}
