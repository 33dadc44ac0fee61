#if canImport(Glibc)
import Synchronization
#endif

/// The trace a developer reads while debugging an integration, written while ``Binoban/debugLogsEnabled`` is on
/// (the seed's "verbose console logging"): each track and identify accepted or dropped, each flush, each upload
/// and its answer.
///
/// Every line goes to standard output (through ``QueuedConsoleWriter``, so the caller never waits for the
/// console) and, when the configuration has one, to the log hook
/// (``Configuration/logHandler``), as a `debug` record whose file and line are the writer's. Lines never carry
/// user data: event names, counts, batch numbers and HTTP statuses only — no property or trait values, no user
/// id, anonymous id or token, no API key.
///
/// Off, the only cost on the hot path is one read of the switch (``isEnabled``); the record is built only when
/// it is on.
struct BinobanDebugLog: Sendable {
    #if canImport(Glibc)
    /// The switch, read without a lock on every accepted event (a relaxed atomic; `Synchronization` would raise
    /// the Apple deployment targets, so there a lock is read instead).
    private static let enabled = Atomic<Bool>(false)
    #else
    private static let enabled = LockedValue(false)
    #endif

    /// Whether debug lines are written; the storage behind ``Binoban/debugLogsEnabled``.
    static var isEnabled: Bool {
        get {
            #if canImport(Glibc)
            enabled.load(ordering: .relaxed)
            #else
            enabled.withLock { $0 }
            #endif
        }
        set {
            #if canImport(Glibc)
            enabled.store(newValue, ordering: .relaxed)
            #else
            enabled.withLock { $0 = newValue }
            #endif
        }
    }

    /// The host's log hook, which receives every line beside standard output.
    let logHandler: (any SDKCoreLogHandler)?
    /// Lines are written for this instance even while the switch is off (``Configuration/debugLogsForThisInstance``).
    let forThisInstance: Bool

    init(logHandler: (any SDKCoreLogHandler)?, forThisInstance: Bool = false) {
        self.logHandler = logHandler
        self.forThisInstance = forThisInstance
    }

    /// Creates the debug log of an instance with `configuration`.
    init(for configuration: Configuration) {
        self.init(logHandler: configuration.logHandler, forThisInstance: configuration.debugLogsForThisInstance)
    }

    /// Whether lines are written: the switch is on, or this instance writes them anyway.
    var isOn: Bool { Self.isOn(forThisInstance: forThisInstance) }

    /// The rule behind ``isOn``, for a caller that has not built a debug log (the facade's hot path).
    static func isOn(forThisInstance: Bool) -> Bool { isEnabled || forThisInstance }

    /// Writes one debug line to standard output and the log hook.
    func write(
        _ message: String,
        _ metadata: [String: String] = [:],
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        let record = SDKCoreLogRecord(
            level: .debug, message: message, metadata: metadata, source: BinobanError.logSource, file: file,
            function: function, line: line)
        ErrorReporter.console.write(record)
        logHandler?.log(record)
    }

    // MARK: The lines

    /// An event handed to the intake (`accepted`) or refused because the instance is paused.
    func event(
        _ kind: PendingEvent.Kind, name: String, fieldCount: Int, accepted: Bool,
        file: String = #fileID, line: UInt = #line
    ) {
        let what = kind == .identify ? "identify" : "\(Self.kindName(kind)) \"\(Self.printable(name))\""
        let fields = kind == .identify ? Self.counted(fieldCount, "trait") : Self.counted(fieldCount, "property")
        var metadata = ["type": Self.kindName(kind), "fieldCount": String(fieldCount)]
        if accepted {
            metadata["outcome"] = "accepted"
            write("\(what) accepted (\(fields))", metadata, file: file, line: line)
        } else {
            metadata["outcome"] = "dropped"
            write("\(what) dropped: the instance is paused (enabled is false)", metadata, file: file, line: line)
        }
    }

    /// A flush the host asked for.
    func flushRequested(awaited: Bool, file: String = #fileID, line: UInt = #line) {
        write(
            awaited ? "flush requested (awaited)" : "flush requested", ["awaited": String(awaited)], file: file,
            line: line)
    }

    /// What an awaited flush achieved.
    func flushFinished(_ result: BinobanFlushResult, file: String = #fileID, line: UInt = #line) {
        write(
            "flush finished: \(result.outcome); \(result.uploadedEvents) events uploaded, "
                + "\(result.rejectedEvents) rejected, \(result.droppedEvents) dropped",
            [
                "outcome": "\(result.outcome)", "uploadedEvents": String(result.uploadedEvents),
                "rejectedEvents": String(result.rejectedEvents), "droppedEvents": String(result.droppedEvents),
            ], file: file, line: line)
    }

    /// A batch about to be sent.
    func uploadStarted(_ batch: BinobanStoredBatch, file: String = #fileID, line: UInt = #line) {
        write(
            "upload of batch \(batch.id.sequence): \(Self.counted(batch.eventCount, "event")), "
                + "\(batch.events.count) bytes",
            [
                "batch": String(batch.id.sequence), "eventCount": String(batch.eventCount),
                "bytes": String(batch.events.count),
            ], file: file, line: line)
    }

    /// The pipeline step results a developer follows: the batches a flush found, and each upload's answer.
    func pipelineInput<Instant>(_ input: PipelineInput<Instant>, file: String = #fileID, line: UInt = #line) {
        switch input {
        case .listed(let batches, _):
            write(
                batches.isEmpty
                    ? "flush: nothing stored to upload"
                    : "flush: \(Self.counted(batches.count, "stored batch")) to upload",
                ["batchCount": String(batches.count)], file: file, line: line)
        case .answered(let id, let status, let retryAfter, _):
            let meaning: String
            switch PipelineMachine<ContinuousClock.Instant>.verdict(forStatus: status) {
            case .accepted: meaning = "accepted; the batch is deleted"
            case .rejected: meaning = "rejected; the batch is deleted and its events are dropped (reported)"
            case .transient:
                meaning =
                    "not accepted now; the batch is kept for a retry"
                    + (retryAfter.map { " (Retry-After \($0))" } ?? "")
            }
            write(
                "upload of batch \(id.sequence) answered HTTP \(status): \(meaning)",
                ["batch": String(id.sequence), "status": String(status)], file: file, line: line)
        case .noAnswer(let id, _, let failure):
            write(
                "upload of batch \(id.sequence) got no answer (\(failure)); the batch is kept for a retry",
                ["batch": String(id.sequence), "status": "none", "reason": failure.reason.rawValue], file: file,
                line: line)
        default:
            break
        }
    }

    // MARK: Formatting

    private static func kindName(_ kind: PendingEvent.Kind) -> String {
        switch kind {
        case .track: "track"
        case .identify: "identify"
        case .page: "page"
        case .screen: "screen"
        case .group: "group"
        case .alias: "alias"
        }
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        guard count != 1 else { return "1 \(noun)" }
        let plural =
            switch noun {
            case "property": "properties"
            case "stored batch": "stored batches"
            default: noun + "s"
            }
        return "\(count) \(plural)"
    }

    /// An event name as a line can show it: at most 100 characters, control characters replaced.
    private static func printable(_ name: String) -> String {
        var result = ""
        for character in name.prefix(100) {
            result.append(
                character.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } ? character : "?")
        }
        return name.dropFirst(100).isEmpty ? result : result + "…"
    }
}
