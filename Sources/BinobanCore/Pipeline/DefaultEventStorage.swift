#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why the default durable storage could not be made.
struct DefaultStorageUnavailable: Error, CustomStringConvertible {
    var description: String
}

/// Opens the durable file storage used when the host configures none.
///
/// The one place where the default storage is constructed. Until the file storage is linked into this
/// module, it throws, and the pipeline falls back to ``InMemoryEventStorage`` with a `storage` report.
func makeDefaultEventStorage(
    directory: URL,
    limits: BinobanStorageLimits,
    namespace: String
) throws -> any BinobanEventStorage {
    throw DefaultStorageUnavailable(description: "the durable file storage is not linked into this build")
}
