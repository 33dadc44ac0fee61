#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Opens the durable file storage used when the host configures none.
///
/// The one place where the default storage is constructed. It throws when the directory is unusable
/// (``BinobanFileStorageError``); the pipeline then falls back to ``InMemoryEventStorage`` and reports it.
func makeDefaultEventStorage(
    directory: URL,
    limits: BinobanStorageLimits,
    namespace: String,
    durability: BinobanFileDurability
) throws -> any BinobanEventStorage {
    try BinobanFileEventStorage(directory: directory, limits: limits, namespace: namespace, durability: durability)
}
