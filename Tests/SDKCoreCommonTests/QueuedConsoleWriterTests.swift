import Dispatch
import SDKCoreCommon
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A real pipe: the writer writes its write end, the test reads the read end.
private struct Pipe {
    let read: Int32
    let write: Int32

    init() throws {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw PipeFailure() }
        (read, write) = (descriptors[0], descriptors[1])
    }

    /// Reads on a thread of its own until end of file (the write end closed), so a full pipe drains meanwhile.
    func startReading() -> @Sendable () async -> String {
        let collected = ReadResult()
        let done = DispatchSemaphore(value: 0)
        let descriptor = read
        DispatchQueue.global().async {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    bytes += chunk[0..<count]
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            collected.set(String(decoding: bytes, as: UTF8.self))
            done.signal()
        }
        return {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    done.wait()
                    continuation.resume()
                }
            }
            return collected.get()
        }
    }
}

private struct PipeFailure: Error {}

private final class ReadResult: Sendable {
    private let text = LockedValue("")
    func set(_ value: String) { text.withLock { $0 = value } }
    func get() -> String { text.withLock { $0 } }
}

private func record(_ index: Int, padding: Int = 0) -> SDKCoreLogRecord {
    SDKCoreLogRecord(
        level: .debug, message: "line \(index)" + String(repeating: "x", count: padding), metadata: ["n": "\(index)"],
        source: "Test", file: "F.swift", function: "f()", line: 1)
}

@Suite("Queued console writer", .timeLimit(.minutes(10)))
struct QueuedConsoleWriterTests {
    @Test("Lines arrive whole, in order, formatted as the stream handler formats them")
    func linesInOrder() async throws {
        let pipe = try Pipe()
        let writer = QueuedConsoleWriter(descriptor: pipe.write)
        let reading = pipe.startReading()
        for index in 0..<500 { writer.write(record(index)) }
        await writer.written()
        close(pipe.write)
        let lines = await reading().split(separator: "\n").map(String.init)
        close(pipe.read)
        #expect(lines == (0..<500).map { SDKCoreStreamLogHandler.line(for: record($0)) })
    }

    @Test("A console nobody reads never blocks the caller; every record is written or counted in a dropped line")
    func unreadConsoleDoesNotBlock() async throws {
        let pipe = try Pipe()
        let writer = QueuedConsoleWriter(descriptor: pipe.write, capacity: 16)
        // 2 000 lines of 2 KB: the pipe holds about 32 of them and the queue 16, so with nothing reading, a
        // blocking writer would stop this loop for good.
        let total = 2_000
        for index in 0..<total { writer.write(record(index, padding: 2_000)) }
        let reading = pipe.startReading()
        await writer.written()
        close(pipe.write)
        let lines = await reading().split(separator: "\n").map(String.init)
        close(pipe.read)

        var written: [Int] = []
        var dropped = 0
        for line in lines {
            if line.hasPrefix("[Test] warning: "), let count = Int(line.dropFirst(16).prefix { $0.isNumber }) {
                #expect(line.hasSuffix("log lines were dropped: the console did not keep up"))
                dropped += count
            } else {
                let index = Int(line.split(separator: "=").last ?? "") ?? -1
                #expect(line == SDKCoreStreamLogHandler.line(for: record(index, padding: 2_000)))
                written.append(index)
            }
        }
        #expect(written == written.sorted())
        #expect(written.count + dropped == total)
        #expect(dropped >= total - 200)
    }
}
