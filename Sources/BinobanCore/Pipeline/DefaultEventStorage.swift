/// Opens the durable file storage used when the host configures none.
///
/// The one place where the default storage is constructed, under the namespace lock the instance took when it
/// was created. It throws when the directory cannot be read (``BinobanFileStorageError``); the pipeline then falls
/// back to ``InMemoryEventStorage`` and reports it.
func makeDefaultEventStorage(
    lock: NamespaceLock,
    limits: BinobanStorageLimits,
    namespace: String,
    durability: BinobanFileDurability,
    executor: (any SerialExecutor)? = nil
) throws -> BinobanFileEventStorage {
    try BinobanFileEventStorage(
        lock: lock, limits: limits, namespace: namespace, durability: durability, executor: executor)
}
