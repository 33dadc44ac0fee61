#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The progress file the separate-process ingest (`Scripts/real-ingest/ingest.py`) rewrites whenever it holds
/// another event: one line, `<distinct bench events held> <wall clock of the latest, seconds since 1970>`.
struct IngestProgressFile {
    let path: String

    /// The ingest's latest count and when its latest event arrived; zeros before the first event.
    func read() -> (held: Int, lastReceive: Double) {
        guard let file = fopen(path, "r") else { return (0, 0) }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 128)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return (0, 0) }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count == 2, let held = Int(fields[0]), let last = Double(fields[1]) else { return (0, 0) }
        return (held, last)
    }
}
