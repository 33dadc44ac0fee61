/// Why a ``BinobanFileEventStorage`` could not open its directory or complete an operation.
///
/// Errors carry a ``Code`` to switch on, a human-readable ``message`` naming the operation and the file (relative
/// to the storage directory), and the system error number when a POSIX call failed.
///
/// ```swift
/// do {
///     storage = try BinobanFileEventStorage(directory: url, namespace: "source-1")
/// } catch let error as BinobanFileStorageError where error.code == .directoryUnusable {
///     // fall back to memory and report
/// }
/// ```
public struct BinobanFileStorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, as an extensible set of named values.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The name of the code, for logs.
        public let description: String

        private init(_ name: String) {
            description = name
        }

        /// The directory is missing and could not be created, is not a directory, or cannot be read and written.
        public static let directoryUnusable = Code("directoryUnusable")
        /// The namespace is empty, too long, or holds characters other than ASCII letters, digits, `_`, `-`, `.`.
        public static let invalidNamespace = Code("invalidNamespace")
        /// A system call on a batch file failed (disk full, permissions changed, I/O error).
        public static let ioFailure = Code("ioFailure")
        /// The requested batch is not a finished batch of this storage (never existed, removed, or evicted).
        public static let batchNotFound = Code("batchNotFound")
        /// A finished batch file no longer holds a single intact event; it was deleted.
        public static let corruptBatch = Code("corruptBatch")
        /// An event handed to `append` is not framed as a JSON object (empty, or not `{…}`); nothing was written.
        public static let malformedEvent = Code("malformedEvent")
        /// Another instance, in this process or in another one, holds the storage lock of this namespace in this
        /// directory (`<namespace>.lock`, an exclusive `flock`); nothing in the directory was read or changed.
        public static let directoryInUse = Code("directoryInUse")
        /// The directory is not owned by the effective user or is writable by its group or by others, or a file
        /// of this namespace in it is owned by another user or is not a regular file; it is not read or used.
        public static let unsafeOwnership = Code("unsafeOwnership")
        /// The storage was closed (``BinobanFileEventStorage/close()``): it gave its namespace back and touches no
        /// file any more; open a new storage on the directory to go on.
        public static let closed = Code("closed")
    }

    /// The kind of failure.
    public var code: Code
    /// What failed, in words, with the file name relative to the storage directory.
    public var message: String
    /// The `errno` of the failed system call, if one failed.
    public var systemErrorNumber: Int32?
    /// For a failed `append`: how many of the call's events were stored (in order, from the first) before the
    /// failure. Zero otherwise.
    public var storedEventsBeforeFailure: Int

    /// Creates an error.
    public init(code: Code, message: String, systemErrorNumber: Int32? = nil, storedEventsBeforeFailure: Int = 0) {
        self.code = code
        self.message = message
        self.systemErrorNumber = systemErrorNumber
        self.storedEventsBeforeFailure = storedEventsBeforeFailure
    }

    /// The code and the message, plus the system error number if any.
    public var description: String {
        var text = "BinobanFileStorageError.\(code): \(message)"
        if let systemErrorNumber {
            text += " (errno \(systemErrorNumber))"
        }
        return text
    }
}
