import BinobanCore
import BinobanCoreURLSession
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of `sdkcore binoban send`: opens the input and the storage, feeds the instance, flushes, reports.
struct BinobanSend {
    typealias Status = BinobanSendCommand.Status

    let options: SendOptions
    let progress: SendProgress

    private func fail(_ message: String, _ status: Int32) -> Int32 {
        progress.clearLine()
        CommandLineTool.printError("sdkcore binoban send: \(message)")
        return status
    }

    func run() async -> Int32 {
        guard let path = options.input, let apiKey = options.apiKey, let source = options.source else {
            return Status.usage
        }
        let input: InputLines
        do {
            input = try InputLines(path: path)
        } catch {
            return fail(error.description, Status.unreadableInput)
        }
        let namespace = BinobanFileEventStorage.namespace(forSourceIdentifier: source)
        var checkpoint: SendCheckpoint?
        var resume: SendCheckpoint.Position?
        let storage: any BinobanEventStorage
        if let directory = options.storage {
            let url = URL(fileURLWithPath: directory, isDirectory: true)
            do {
                storage = try BinobanFileEventStorage(directory: url, namespace: namespace)
            } catch {
                return fail("--storage \(directory): \(SendMessages.text(of: error))", Status.storageUnusable)
            }
            let file = SendCheckpoint(directory: url, namespace: namespace)
            do {
                resume = try file.load()
            } catch {
                return fail(error.description, Status.storageUnusable)
            }
            checkpoint = file
        } else {
            storage = InMemoryEventStorage()
        }
        let ledger = SendLedger(checkpoint: checkpoint)
        ledger.update { $0.inputBytes = input.size }
        if !options.dryRun,
            let hint = Self.schemeHint(forHost: options.apiHost ?? "", allowsCleartext: options.allowsCleartextHost)
        {
            CommandLineTool.printError("sdkcore binoban send: note: \(hint)")
        }
        let signals = SignalWatch()
        let refusal = LockedValue<String?>(nil)
        let instance = makeInstance(
            apiKey: apiKey, source: source, storage: storage, ledger: ledger, refusal: refusal)
        guard instance.isOperational else {
            let reason = refusal.withLock { $0 } ?? "the configuration was refused"
            return fail(
                "cannot send: \(reason); nothing was read or sent\nRun 'sdkcore binoban send --help' for usage.",
                Status.usage)
        }
        if let resume {
            progress.clearLine()
            CommandLineTool.printError(
                "sdkcore binoban send: resuming: lines 1-\(resume.linesStored) are already stored in \(options.storage ?? "")"
            )
        }
        let ticker = Task { [progress] in
            var last: SendLedger.Counts?
            while !Task.isCancelled {
                let counts = ledger.counts
                if counts != last {
                    progress.show(counts)
                    last = counts
                }
                try? await Task.sleep(for: .milliseconds(progress.mode == .plain ? 500 : 100))
            }
        }
        defer { ticker.cancel() }

        signals.whenReceived { ledger.stopWaiting() }
        let reading = await feed(input, into: instance, ledger: ledger, resume: resume, signals: signals)
        var ending: SendOutcome.Ending
        var problem: String?
        switch reading {
        case .finished: ending = .endOfInput
        case .stoppedAtBadLine: ending = .stoppedAtBadLine
        case .inputChanged(let message):
            ending = .inputChanged
            problem = message
        case .unreadable(let message):
            ending = .unreadable
            problem = message
        }
        if ending == .endOfInput || ending == .stoppedAtBadLine, !signals.received {
            // The final flush; a signal cancels it (the shutdown below then has its short deadline).
            let flush = Task { await instance.flushAndWait() }
            signals.whenReceived { flush.cancel() }
            _ = await flush.value
        }
        if signals.received { ending = .interrupted }
        await instance.shutdown(gracePeriod: .seconds(2))
        ticker.cancel()
        let counts = ledger.counts
        progress.clearLine()
        if progress.mode != .none { progress.show(counts) }
        if progress.mode == .tty { SendProgress.write("\n") }
        if let problem { CommandLineTool.printError("sdkcore binoban send: \(problem)") }
        if let failure = ledger.checkpointFailure {
            CommandLineTool.printError("sdkcore binoban send: the progress checkpoint could not be saved: \(failure)")
        }
        let outcome = SendOutcome(
            ending: ending, counts: counts, statistics: instance.statistics, dryRun: options.dryRun,
            storage: options.storage, checkpointFailed: ledger.checkpointFailure != nil,
            checkpointHeld: ledger.checkpointHeld)
        CommandLineTool.printError(outcome.summary)
        return outcome.status
    }

    private func makeInstance(
        apiKey: String, source: String, storage: any BinobanEventStorage, ledger: SendLedger,
        refusal: LockedValue<String?>
    ) -> Binoban {
        let options = self.options
        let progress = self.progress
        return BinobanFactory.shared.create(apiKey: apiKey, sourceIdentifier: source) { config in
            config.apiHost = options.dryRun ? (options.apiHost ?? "api.binoban.io") : (options.apiHost ?? "")
            config.allowsCleartextHost = options.allowsCleartextHost
            config.storage = LedgerStorage(base: storage, ledger: ledger)
            if let directory = options.storage {
                config.storageDirectory = URL(fileURLWithPath: directory, isDirectory: true)
            } else {
                config.keyValueStore = InMemoryKeyValueStore()
            }
            let transport: any BinobanEventTransport =
                options.dryRun ? PrintingTransport() : Self.platformTransport()
            config.transport = CountingTransport(base: transport, ledger: ledger)
            config.flushAt = options.flushAt
            config.flushInterval = 5
            config.uploadMaxRetries = options.maxRetries
            config.errorHandler = { error in
                // A refused configuration is said once, by the tool, with what to do about it.
                if error.kind == .invalidConfiguration {
                    refusal.withLock { $0 = $0 ?? error.message }
                    return
                }
                progress.clearLine()
                CommandLineTool.printError("sdkcore binoban send: \(SendMessages.text(of: error))")
            }
        }
    }

    /// The transport an instance uses by default on this platform: libcurl on Linux (Decision 0308), URLSession
    /// elsewhere.
    static func platformTransport() -> any BinobanEventTransport {
        #if os(Linux)
        CurlEventTransport()
        #else
        URLSessionEventTransport()
        #endif
    }

    private enum Reading {
        case finished
        case stoppedAtBadLine
        case inputChanged(String)
        case unreadable(String)
    }

    /// Reads every line, skipping those an earlier run stored, and hands the valid ones to `instance`.
    private func feed(
        _ input: InputLines, into instance: Binoban, ledger: SendLedger, resume: SendCheckpoint.Position?,
        signals: SignalWatch
    ) async -> Reading {
        var splitter = LineSplitter(maximumLineBytes: SendCommandLimits.maximumLineBytes)
        var number = 0
        let skipThrough = resume?.linesStored ?? 0
        func bad(_ description: String) -> Reading? {
            ledger.update { $0.bad += 1 }
            progress.clearLine()
            CommandLineTool.printError("sdkcore binoban send: line \(number): \(description)")
            return options.strict ? .stoppedAtBadLine : nil
        }
        func handle(_ piece: LineSplitter.Piece) async -> Reading? {
            number += 1
            ledger.update { $0.read += 1 }
            if number <= skipThrough {
                ledger.update { $0.skipped += 1 }
                if number == skipThrough {
                    guard case .line(_, let hash) = piece, hash == resume?.inputHash else {
                        return .inputChanged(changedInputMessage)
                    }
                }
                return nil
            }
            guard case .line(let bytes, let hash) = piece else {
                return bad(
                    "longer than the limit of \(SendCommandLimits.maximumLineBytes) bytes; rejected without "
                        + "reading the rest of it into memory")
            }
            if Self.isBlank(bytes) { return nil }
            let parsed: SendLine
            do {
                parsed = try SendLine.parse(bytes)
            } catch {
                return bad(error.description)
            }
            ledger.register(line: number, hashThroughLine: hash)
            Self.deliver(parsed, to: instance)
            await ledger.waitUntilOutstanding(below: SendCommandLimits.maxOutstanding)
            return nil
        }
        while !signals.received, let chunk = await input.nextChunk(shouldStop: { signals.received }) {
            switch chunk {
            case .failure(let failure): return .unreadable("\(options.input ?? ""): \(failure.description)")
            case .success(let bytes):
                ledger.update { $0.bytesRead += bytes.count }
                for piece in splitter.pieces(in: bytes) {
                    if signals.received { return .finished }
                    if let stop = await handle(piece) { return stop }
                }
            }
        }
        if !signals.received, let last = splitter.finish(), let stop = await handle(last) { return stop }
        if number < skipThrough { return .inputChanged(changedInputMessage) }
        return .finished
    }

    /// Whether a line holds nothing but white space (such lines are skipped).
    static func isBlank(_ bytes: [UInt8]) -> Bool {
        guard bytes.contains(where: { $0 >= 0x80 }) else {
            return bytes.allSatisfy { $0 == 0x20 || (0x09...0x0D).contains($0) }
        }
        return String(decoding: bytes, as: UTF8.self).allSatisfy(\.isWhitespace)
    }

    /// A note that says where batches go when that is not what `--api-host` spells: a host without a scheme is
    /// reached over HTTPS (for a loopback host the note also gives the plain-HTTP spelling), and so is an explicit
    /// `http://` host the instance upgrades (not loopback, no `--allow-cleartext-host`). `nil` when batches go
    /// where the option says. The instance's own normalization decides; the note only words it.
    static func schemeHint(forHost host: String, allowsCleartext: Bool) -> String? {
        let trimmed = String(host.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        let normalized = HostNormalization.normalize(trimmed, allowsCleartext: allowsCleartext)
        guard !trimmed.isEmpty, normalized.problem == nil else { return nil }
        if trimmed.lowercased().hasPrefix("http://") {
            guard normalized.scheme == "https" else { return nil }
            return "--api-host '\(trimmed)' is not a loopback host, so batches go over HTTPS "
                + "(https://\(trimmed.dropFirst("http://".count))); for a plain-HTTP ingest on a private network "
                + "add --allow-cleartext-host"
        }
        guard !trimmed.contains("://") else { return nil }
        var hint = "--api-host '\(trimmed)' has no scheme, so batches go over HTTPS (https://\(trimmed))"
        // Loopback exactly when the instance would keep the same host written with http://.
        if HostNormalization.normalize("http://" + trimmed).scheme == "http" {
            hint += "; for a plain-HTTP ingest on this machine write http://\(trimmed)"
        }
        return hint
    }

    private var changedInputMessage: String {
        "the input differs from the one the checkpoint in \(options.storage ?? "") was written for; "
            + "use a new --storage directory to send a different input"
    }

    /// Makes the one server call a line stands for, with the line's ids and message fields. A line without ids
    /// carries the tool's own anonymousId (the server calls' rule for an identity with neither id).
    static func deliver(_ line: SendLine, to instance: Binoban) {
        let identity = BinobanEventIdentity(userId: line.userId, anonymousId: line.anonymousId)
        let server = instance.server
        switch line.kind {
        case .track:
            server.track(name: line.name ?? "", properties: line.payload, as: identity, fields: line.fields)
        case .identify:
            server.identify(traits: line.payload, as: identity, fields: line.fields)
        case .page:
            server.page(
                name: line.name, category: line.category, properties: line.payload, as: identity, fields: line.fields)
        case .screen:
            server.screen(
                name: line.name, category: line.category, properties: line.payload, as: identity, fields: line.fields)
        case .group:
            server.group(groupId: line.groupId ?? "", traits: line.payload, as: identity, fields: line.fields)
        case .alias:
            server.alias(userId: line.userId ?? "", previousId: line.previousId ?? "", fields: line.fields)
        }
    }
}
