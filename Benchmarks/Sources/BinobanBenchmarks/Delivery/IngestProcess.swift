import BenchmarkSupport
import Foundation
import LoopbackHTTP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``CountingIngest`` in a child process of its own (this executable, started with ``childArgument``), so the
/// client's CPU figure is the client process's alone: an in-process ingest charges its socket reads, HTTP
/// framing and body scans to the process under test, which a remote ingest never does (the figure is
/// "CPU seconds of the client process per 100 000 events delivered").
///
/// The two processes talk over pipes, one line at a time. The child prints `port P` once it listens, then
/// `held N T` whenever it acknowledged another body (checked every 2 ms: N distinct bench events held, T when
/// the latest body arrived); on `finish` (or
/// when its input closes) it decodes any gzip bodies it kept and prints one `final …` line, then exits.
/// Instants cross the process boundary as `CLOCK_MONOTONIC` nanoseconds, which both processes share.
final class IngestProcess: Sendable {
    /// The argument that makes this executable run as the child.
    static let childArgument = "--ingest-child"

    private struct State: Sendable {
        var port: UInt16?
        var heldBench = 0
        var lastDeliveryNanos: Int64 = 0
        var report: IngestReport?
        var ended = false
    }

    let port: UInt16
    private let process: Process
    private let input: FileHandle
    private let state: Locked<State>
    private let changed: DispatchSemaphore

    private init(
        port: UInt16, process: Process, input: FileHandle, state: Locked<State>, changed: DispatchSemaphore
    ) {
        self.port = port
        self.process = process
        self.input = input
        self.state = state
        self.changed = changed
    }

    /// Starts the child and waits until it listens; `nil` when it could not start.
    static func launch() -> IngestProcess? {
        let process = Process()
        // This executable, however it was started (a name found on PATH is not a path).
        #if os(Linux)
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        #else
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        #endif
        process.arguments = [childArgument]
        // Without BENCH_VERBOSE: the child's request trace would `print`, whose `fflush(nil)` waits for standard
        // input's lock, held by the child's thread blocked in `readLine()`; the child then stopped serving.
        var environment = ProcessInfo.processInfo.environment
        environment["BENCH_VERBOSE"] = nil
        process.environment = environment
        let toChild = Pipe()
        let fromChild = Pipe()
        process.standardInput = toChild
        process.standardOutput = fromChild
        do { try process.run() } catch { return nil }
        let state = Locked(State())
        let changed = DispatchSemaphore(value: 0)
        let reading = fromChild.fileHandleForReading
        let reader = Thread {
            var pending = Data()
            while true {
                let chunk = reading.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    state.withLock { Self.apply(line, to: &$0) }
                    changed.signal()
                }
            }
            state.withLock { $0.ended = true }
            changed.signal()
        }
        reader.start()
        while true {
            let (port, ended) = state.withLock { ($0.port, $0.ended) }
            if let port {
                return IngestProcess(
                    port: port, process: process, input: toChild.fileHandleForWriting, state: state,
                    changed: changed)
            }
            if ended { return nil }
            changed.wait()
        }
    }

    /// Distinct bench events the child held at its latest report.
    var heldBench: Int { state.withLock { $0.heldBench } }

    /// When the latest event the child reported arrived (`CLOCK_MONOTONIC` nanoseconds; 0: none yet).
    var lastDeliveryNanos: Int64 { state.withLock { $0.lastDeliveryNanos } }

    /// Tells the child to finish, waits for its report and its exit.
    func finish() -> IngestReport {
        try? input.write(contentsOf: Data("finish\n".utf8))
        try? input.close()
        while true {
            let (report, ended) = state.withLock { ($0.report, $0.ended) }
            if let report {
                process.waitUntilExit()
                return report
            }
            if ended { return IngestReport() }
            changed.wait()
        }
    }

    private static func apply(_ line: String, to state: inout State) {
        let fields = line.split(separator: " ")
        switch fields.first {
        case "port": state.port = fields.dropFirst().first.flatMap { UInt16($0) }
        case "held":
            guard fields.count == 3, let held = Int(fields[1]), let nanos = Int64(fields[2]) else { return }
            state.heldBench = held
            state.lastDeliveryNanos = nanos
        case "final":
            let numbers = fields.dropFirst().map { Double($0) ?? 0 }
            guard numbers.count == 7 else { return }
            state.report = IngestReport(
                deliveredBench: Int(numbers[0]), duplicates: Int(numbers[1]), requests: Int(numbers[2]),
                wireBytes: Int(numbers[3]), gzipBodies: Int(numbers[4]), lastDeliveryNanos: Int64(numbers[5]),
                ingestProcessCPUSeconds: numbers[6])
        default: break
        }
    }

    /// The child's side: serves until told to finish, then reports and exits.
    static func runChild() -> Never {
        let ingest = CountingIngest()
        let server = ingest.makeServer()
        guard let port = try? server.start() else { exit(1) }
        emit("port \(port)")
        let finishing = Locked(false)
        let stdinReader = Thread {
            while let line = readLine(), line != "finish" {}
            finishing.withLock { $0 = true }
        }
        stdinReader.start()
        // Reported again whenever another body was acknowledged, so a gzip run (whose bodies are decoded only
        // at the end) still reports when its latest delivery arrived.
        var reported = (held: 0, acknowledged: 0)
        while !finishing.withLock({ $0 }) {
            let (held, acknowledged, lastDelivery) = ingest.tally.withLock {
                ($0.deliveredBench, $0.answered200, $0.lastDelivery)
            }
            if held != reported.held || acknowledged != reported.acknowledged {
                reported = (held, acknowledged)
                emit("held \(held) \(lastDelivery.map(monotonicNanos) ?? 0)")
            }
            usleep(2_000)
        }
        server.stop()
        let report = ingest.report()
        let fields: [String] = [
            "\(report.deliveredBench)", "\(report.duplicates)", "\(report.requests)", "\(report.wireBytes)",
            "\(report.gzipBodies)", "\(report.lastDeliveryNanos)", "\(processCPUSeconds())",
        ]
        emit("final " + fields.joined(separator: " "))
        exit(0)
    }
}

/// Writes a line straight to the standard output's descriptor. Not `print`: its `fflush(nil)` waits for the lock
/// of standard input, which the thread blocked in `readLine()` holds.
private func emit(_ line: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
}

/// What an ingest held at the end of a sample.
struct IngestReport: Sendable {
    var deliveredBench = 0
    var duplicates = 0
    var requests = 0
    var wireBytes = 0
    /// Gzip bodies kept during the sample and decoded after it.
    var gzipBodies = 0
    /// When the latest bench event arrived, in `CLOCK_MONOTONIC` nanoseconds (0: none arrived).
    var lastDeliveryNanos: Int64 = 0
    /// CPU seconds the in-process ingest's handler spent (0 for an ingest in its own process).
    var handlerCPUSeconds = 0.0
    /// The ingest process's own CPU seconds, for the record (0 for an in-process ingest).
    var ingestProcessCPUSeconds = 0.0
}

/// The ingest of one burst sample: in the client's process or in a child of its own.
enum BurstIngest {
    case inProcess(CountingIngest, LoopbackHTTPServer, port: UInt16)
    case child(IngestProcess)

    /// Starts an ingest; `nil` when it could not.
    static func start(separate: Bool) -> BurstIngest? {
        if separate { return IngestProcess.launch().map { .child($0) } }
        let ingest = CountingIngest()
        let server = ingest.makeServer()
        guard let port = try? server.start() else { return nil }
        return .inProcess(ingest, server, port: port)
    }

    var port: UInt16 {
        switch self {
        case .inProcess(_, _, let port): port
        case .child(let process): process.port
        }
    }

    /// Distinct bench events held so far.
    var deliveredBench: Int {
        switch self {
        case .inProcess(let ingest, _, _): ingest.deliveredBench
        case .child(let process): process.heldBench
        }
    }

    /// When the latest event arrived (`CLOCK_MONOTONIC` nanoseconds; 0: none yet).
    var lastDeliveryNanos: Int64 {
        switch self {
        case .inProcess(let ingest, _, _): ingest.tally.withLock { $0.lastDelivery }.map(monotonicNanos) ?? 0
        case .child(let process): process.lastDeliveryNanos
        }
    }

    /// Stops the ingest and reports what it held.
    func finish() -> IngestReport {
        switch self {
        case .inProcess(let ingest, let server, _):
            server.stop()
            return ingest.report()
        case .child(let process):
            return process.finish()
        }
    }
}

extension CountingIngest {
    /// Decodes the kept gzip bodies and reports the tally.
    func report() -> IngestReport {
        let (bodies, wireBytes) = decodeDeferredBodies()
        let tally = tally.withLock { $0 }
        return IngestReport(
            deliveredBench: tally.deliveredBench, duplicates: tally.duplicates, requests: tally.requests,
            wireBytes: wireBytes, gzipBodies: bodies, lastDeliveryNanos: tally.lastDelivery.map(monotonicNanos) ?? 0,
            handlerCPUSeconds: tally.handlerCPUSeconds)
    }
}

/// `instant` of the continuous clock as `CLOCK_MONOTONIC` nanoseconds.
func monotonicNanos(_ instant: ContinuousClock.Instant) -> Int64 {
    let ago = instant.duration(to: ContinuousClock.now).components
    return monotonicNanos() - (ago.seconds * 1_000_000_000 + ago.attoseconds / 1_000_000_000)
}

/// Nanoseconds of `CLOCK_MONOTONIC`, a time line every process on the machine shares.
func monotonicNanos() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}
