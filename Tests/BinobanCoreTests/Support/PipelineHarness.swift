import BinobanCoreTesting
import Foundation

/// Collects the reports an instance sends to its error handler.
final class ReportRecorder: Sendable {
    private let reports = LockedValue<[BinobanError]>([])

    var handler: @Sendable (BinobanError) -> Void {
        { error in self.reports.withLock { $0.append(error) } }
    }

    var all: [BinobanError] { reports.withLock { $0 } }

    func kinds() -> [BinobanError.Kind] { all.map(\.kind) }

    func contains(_ kind: BinobanError.Kind) -> Bool { all.contains { $0.kind == kind } }
}

/// An instance wired to a manual clock, a scripted transport and an observable in-memory storage.
struct PipelineHarness {
    let binoban: Binoban
    let clock: ManualClock
    let transport: ScriptedTransport
    let memory: InMemoryEventStorage
    let storage: ObservableEventStorage
    let reports: ReportRecorder
    let keyValueStore: any BinobanKeyValueStore

    init(
        script: [ScriptedAnswer] = [],
        defaultAnswer: ScriptedAnswer = 200,
        limits: BinobanStorageLimits = BinobanStorageLimits(),
        memory: InMemoryEventStorage? = nil,
        keyValueStore: (any BinobanKeyValueStore)? = nil,
        random: any BinobanRandomSource = SeededRandomSource(seed: 7),
        clock: ManualClock = ManualClock(),
        configure: (inout Configuration) -> Void = { _ in }
    ) {
        let memory = memory ?? InMemoryEventStorage(limits: limits, writeKey: "SOURCE")
        let storage = ObservableEventStorage(memory)
        let transport = ScriptedTransport(script: script, defaultAnswer: defaultAnswer)
        let reports = ReportRecorder()
        let store = keyValueStore ?? InMemoryKeyValueStore()
        var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "SOURCE")
        configuration.apiHost = "api.binoban.io"
        configuration.storage = storage
        configuration.storageLimits = limits
        configuration.keyValueStore = store
        configuration.transport = transport
        configuration.clock = clock
        configuration.wallClock = clock
        configuration.randomSource = random
        configuration.contextProvider = FixedContextProvider()
        configuration.flushInterval = 3600
        configuration.errorHandler = reports.handler
        configure(&configuration)
        self.binoban = Binoban.create(configuration: configuration)
        self.clock = clock
        self.transport = transport
        self.memory = memory
        self.storage = storage
        self.reports = reports
        self.keyValueStore = store
    }

    /// Waits until the startup flush is over, so later uploads are attributable.
    func settle() async {
        await binoban.flushAndWait()
    }

    /// Every event uploaded so far, decoded with JSONDecoder.
    func uploadedEvents() throws -> [UploadedEvent] {
        try transport.uploadedEvents()
    }
}
