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
        progress.printLine("sdkcore binoban send: \(message)")
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
        var held: HeldStorage?
        if let directory = options.storage {
            let url = URL(fileURLWithPath: directory, isDirectory: true)
            do {
                held = try HeldStorage(directory: url, namespace: namespace)
            } catch {
                return fail("--storage \(directory): \(error.description)", Status.storageUnusable)
            }
            storage = held?.storage ?? InMemoryEventStorage()
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
            progress.printLine("sdkcore binoban send: note: \(hint)")
        }
        if !options.dryRun,
            let note = Self.pathNote(forHost: options.apiHost ?? "", allowsCleartext: options.allowsCleartextHost)
        {
            progress.printLine("sdkcore binoban send: note: \(note)")
        }
        // Counted before the instance starts uploading them.
        let leftByEarlierRuns = held?.storedEvents() ?? 0
        let signals = SignalWatch()
        let refusal = LockedValue<String?>(nil)
        // Set while the final flush runs: a batch that used its retries then ends the flush.
        let finalFlushGiveUp = LockedValue<OneShot?>(nil)
        // Fired by a failure no retry can mend (a plain-HTTP server answered the TLS hello), whenever it comes.
        let misaddressed = OneShot()
        let instance = makeInstance(
            apiKey: apiKey, source: source, storage: storage, identity: held?.identity, ledger: ledger,
            refusal: refusal, giveUp: finalFlushGiveUp, misaddressed: misaddressed)
        guard instance.isOperational else {
            let reason = refusal.withLock { $0 } ?? "the configuration was refused"
            return fail(
                "cannot send: \(reason); nothing was read or sent\nRun 'sdkcore binoban send --help' for usage.",
                Status.usage)
        }
        if let resume {
            progress.printLine(
                "sdkcore binoban send: resuming: lines 1-\(resume.linesStored) are already stored in \(options.storage ?? "")"
            )
        }
        let ticker = Task { [progress] in
            var last: SendLedger.Counts?
            while !Task.isCancelled {
                ledger.observe(instance.statistics)
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
            // The final flush; a signal cancels it (the shutdown below then has its short deadline), and so does
            // an ingest that keeps failing (Docs/Decisions/0538).
            let flush = Task { await instance.flushAndWait() }
            signals.whenReceived { flush.cancel() }
            let giveUp = OneShot()
            finalFlushGiveUp.withLock { $0 = giveUp }
            giveUp.whenFired { flush.cancel() }
            misaddressed.whenFired { flush.cancel() }
            let watchdog = Task { await Self.cancelWhenNoAnswerComes(flush, ledger: ledger, within: silenceLimit) }
            _ = await flush.value
            watchdog.cancel()
        }
        if signals.received { ending = .interrupted }
        await instance.shutdown(gracePeriod: .seconds(2))
        ticker.cancel()
        await ticker.value  // no progress line after the summary
        ledger.observe(instance.statistics)
        let counts = ledger.counts
        progress.clearLine()
        if progress.mode != .none { progress.show(counts) }
        progress.endLine()
        if let problem { progress.printLine("sdkcore binoban send: \(problem)") }
        if let failure = ledger.checkpointFailure {
            progress.printLine("sdkcore binoban send: the progress checkpoint could not be saved: \(failure)")
        }
        let outcome = SendOutcome(
            ending: ending, counts: counts, statistics: instance.statistics, dryRun: options.dryRun,
            storage: options.storage, checkpointFailed: ledger.checkpointFailure != nil,
            checkpointHeld: ledger.checkpointHeld, leftByEarlierRuns: leftByEarlierRuns,
            keptInStorage: held?.storedEvents(), signal: signals.number ?? SIGINT)
        progress.printLine(outcome.summary)
        return outcome.status
    }

    private func makeInstance(
        apiKey: String, source: String, storage: any BinobanEventStorage, identity: FileKeyValueStore?,
        ledger: SendLedger, refusal: LockedValue<String?>, giveUp: LockedValue<OneShot?>, misaddressed: OneShot
    ) -> Binoban {
        let options = self.options
        let progress = self.progress
        return BinobanFactory.shared.create(apiKey: apiKey, sourceIdentifier: source) { config in
            config.apiHost = options.dryRun ? (options.apiHost ?? "api.binoban.io") : (options.apiHost ?? "")
            config.allowsCleartextHost = options.allowsCleartextHost
            config.storage = LedgerStorage(base: storage, ledger: ledger)
            // The command holds the directory's lock through the storage it opened, so the instance gets that
            // storage and the identity file beside it and takes no lock of its own (Docs/Decisions/0536).
            config.keyValueStore = identity ?? InMemoryKeyValueStore()
            if identity != nil {
                // An outage slows the reading instead of evicting what is stored (Docs/Decisions/0536).
                config.storageLimits = HeldStorage.limits
                config.backpressure = .wait
            }
            let transport: any BinobanEventTransport =
                options.dryRun ? PrintingTransport() : Self.platformTransport()
            config.transport = CountingTransport(base: transport, ledger: ledger) { misaddressed.fire() }
            config.flushAt = options.flushAt
            config.flushInterval = 5
            config.uploadMaxRetries = options.maxRetries
            config.errorHandler = { error in
                // A refused configuration is said once, by the tool, with what to do about it.
                if error.kind == .invalidConfiguration {
                    refusal.withLock { $0 = $0 ?? error.message }
                    return
                }
                let text = SendMessages.text(of: error, lastTransportFailure: ledger.counts.lastTransportFailure)
                if error.kind == .uploadFailed, error.message.contains("after \(options.maxRetries) retries") {
                    giveUp.withLock { $0 }?.fire()
                }
                progress.printLine("sdkcore binoban send: \(text)")
            }
        }
    }

    /// How long the final flush goes on without any final answer (2xx or 4xx) before it ends: the longest
    /// backoff `--max-retries` allows (1 s, doubling, each at most 60 s) plus 30 s for a request that waits for
    /// its answer. Within a flush each batch keeps its own 1, 2, 4 s schedule (Docs/Decisions/0540), but the wait
    /// before a flush's first request grows with the failures of earlier flushes (while the file was read) up to
    /// 60 s, so this bound still caps a final flush that starts after an outage (Docs/Decisions/0538).
    private var silenceLimit: Duration {
        var seconds = 30
        var step = 1
        for _ in 0..<min(options.maxRetries, 64) {
            seconds += step
            step = min(step * 2, 60)
        }
        return .seconds(seconds)
    }

    /// Cancels `flush` once `limit` passes without a final answer from the ingest (the ledger's sent or rejected
    /// events not growing); returns when cancelled itself.
    private static func cancelWhenNoAnswerComes(
        _ flush: Task<BinobanFlushResult, Never>, ledger: SendLedger, within limit: Duration
    ) async {
        let clock = ContinuousClock()
        var answered = ledger.counts.sent + ledger.counts.rejected
        var since = clock.now
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(250))
            let now = ledger.counts.sent + ledger.counts.rejected
            if now != answered {
                answered = now
                since = clock.now
            } else if since.duration(to: clock.now) >= limit {
                flush.cancel()
                return
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
            progress.printLine("sdkcore binoban send: line \(number): \(description)")
            return options.strict ? .stoppedAtBadLine : nil
        }
        func handle(_ piece: LineSplitter.Piece) async -> Reading? {
            number += 1
            ledger.update { $0.read += 1 }
            if number <= skipThrough {
                ledger.update { $0.resumed += 1 }
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
            if Self.isBlank(bytes) {
                ledger.update { $0.blank += 1 }
                return nil
            }
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

    /// A note for an `--api-host` with a path: the path is kept as a prefix and the upload path `/b` follows it
    /// (the library's rule for `apiHost`), which the note spells out with the URL batches go to
    /// (Docs/Decisions/0537). `nil` for a host without a path.
    static func pathNote(forHost host: String, allowsCleartext: Bool) -> String? {
        let normalized = HostNormalization.normalize(host, allowsCleartext: allowsCleartext)
        guard normalized.problem == nil, let slash = normalized.host.firstIndex(of: "/") else { return nil }
        let path = normalized.host[slash...]
        guard path != "/" else { return nil }
        return "--api-host has the path \(path), which is kept: batches go to "
            + "\(normalized.scheme)://\(normalized.host)/b (the host's path, then /b)"
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
