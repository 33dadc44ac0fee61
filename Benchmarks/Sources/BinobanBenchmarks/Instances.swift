import BenchmarkSupport
import BinobanCoreTesting

/// Builds benchmark instances: in-memory storage and identity, no network.
enum Instances {
    static func make(
        storage: any BinobanEventStorage,
        transport: (any BinobanEventTransport)? = nil,
        capacity: Int = 1000,
        limits: BinobanStorageLimits = BinobanStorageLimits(),
        compressed: Bool = false
    ) -> Binoban {
        var configuration = Configuration(apiKey: "BENCH_KEY", sourceIdentifier: "bench-source")
        configuration.apiHost = "127.0.0.1"
        configuration.storage = storage
        configuration.storageLimits = limits
        configuration.keyValueStore = InMemoryKeyValueStore()
        configuration.transport = transport
        configuration.writeStageCapacity = capacity
        configuration.flushAt = 1_000_000
        configuration.flushInterval = 3600
        if compressed { configuration.compressesUploads = true }
        // Diagnostic: BENCH_NO_DRIVER=1 measures the caller's cost alone (the write stage overflows and drops).
        configuration.startsAutomatically = environment("BENCH_NO_DRIVER") == nil
        return Binoban.create(configuration: configuration)
    }

    /// Three small properties, as in the hot-path target.
    @inline(__always)
    static func properties(_ index: Int) -> JSONValue {
        ["item": "shoes", "price": 49.99, "index": .int(index)]
    }
}
