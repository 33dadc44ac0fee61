#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The byte layout of a batch file, and the scan that finds its intact prefix.
///
/// A file starts with the 8-byte ``magic`` (`BNBEVT1` and a newline). Each event follows as one record:
/// a 4-byte little-endian payload length, the 4-byte little-endian CRC-32 of the payload, then the payload (the
/// event's JSON object, stored verbatim). Records are only ever appended, so a process killed mid-write leaves
/// an intact prefix followed by at most one torn record. ``scan(_:)`` walks the records and stops at the first
/// one that is incomplete, fails its checksum, or is not framed as a JSON object: everything before that point
/// is kept, everything from it on is discarded. The framing never depends on the event's content.
enum BatchRecordFormat {
    /// The first bytes of every batch file.
    static let magic: [UInt8] = Array("BNBEVT1\n".utf8)
    /// Bytes before each record's payload: length and checksum.
    static let recordHeaderBytes = 8

    /// The most bytes of a batch file the storage reads. A batch written under `maxBatchBytes` is far smaller (its
    /// body stays below the limit and records add 8 bytes per event of at least 2 bytes); anything beyond this
    /// bound is treated as a corrupt tail, so that a huge file with a batch name cannot exhaust memory.
    static func readLimit(maxBatchBytes: Int) -> Int {
        let (scaled, overflow) = max(maxBatchBytes, 0).multipliedReportingOverflow(by: 8)
        return overflow || scaled > Int.max - 65_536 ? Int.max : scaled + 65_536
    }

    /// Appends one record holding `event` to `buffer`.
    static func appendRecord(_ event: Data, to buffer: inout [UInt8]) {
        event.withUnsafeBytes { raw in
            appendLittleEndian(UInt32(truncatingIfNeeded: raw.count), to: &buffer)
            appendLittleEndian(CRC32.checksum(raw), to: &buffer)
            buffer.append(contentsOf: raw.bindMemory(to: UInt8.self))
        }
    }

    /// What a scan of a batch file found.
    struct Scan: Equatable, Sendable {
        /// Whether the file starts with ``magic``.
        var hasMagic: Bool
        /// Bytes from the start of the file through the last intact record (0 without magic).
        var intactBytes: Int
        /// Intact records.
        var eventCount: Int
        /// Bytes of the upload body the intact records make: their payloads joined by commas.
        var bodyBytes: Int
    }

    /// Finds the intact prefix of a batch file's bytes.
    static func scan(_ bytes: UnsafeRawBufferPointer) -> Scan {
        var result = Scan(hasMagic: false, intactBytes: 0, eventCount: 0, bodyBytes: 0)
        guard bytes.count >= magic.count, bytes.prefix(magic.count).elementsEqual(magic) else { return result }
        result.hasMagic = true
        result.intactBytes = magic.count
        forEachRecord(in: bytes) { payload, end in
            result.bodyBytes += payload.count + (result.eventCount == 0 ? 0 : 1)
            result.eventCount += 1
            result.intactBytes = end
        }
        return result
    }

    /// The upload body of a batch file's intact records (payloads joined by commas), and how many there are.
    ///
    /// Written into one buffer of the file's size (the body is always shorter: every record drops an 8-byte header
    /// and adds at most a comma), not appended to a `Data` record by record, which cost more than the copying. The
    /// buffer is allocated uninitialised and handed to the `Data` without a copy: `Data(count:)` zero-filled the
    /// half megabyte of a burst's batch before it was overwritten.
    static func body(of bytes: UnsafeRawBufferPointer) -> (events: Data, eventCount: Int) {
        guard bytes.count >= magic.count, bytes.prefix(magic.count).elementsEqual(magic) else { return (Data(), 0) }
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        var count = 0
        var position = 0
        forEachRecord(in: bytes) { payload, _ in
            if count > 0 {
                output[position] = UInt8(ascii: ",")
                position += 1
            }
            UnsafeMutableRawBufferPointer(rebasing: output[position..<(position + payload.count)])
                .copyMemory(from: payload)
            position += payload.count
            count += 1
        }
        guard position > 0, let base = output.baseAddress else {
            output.deallocate()
            return (Data(), count)
        }
        let body = Data(bytesNoCopy: base, count: position, deallocator: .custom { pointer, _ in pointer.deallocate() })
        return (body, count)
    }

    /// Calls `body` with each intact record's payload, in order; nothing when `bytes` does not start with
    /// ``magic``. The read-only backlog reader's walk: the same records ``body(of:)`` joins.
    static func forEachIntactRecord(in bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        guard bytes.count >= magic.count, bytes.prefix(magic.count).elementsEqual(magic) else { return }
        forEachRecord(in: bytes) { payload, _ in body(payload) }
    }

    /// Calls `body` with the payload of each record of `records`: records this process framed with
    /// ``appendRecord(_:to:)`` and wrote a moment ago, so no checksum is computed again. Returns false (after
    /// calling `body` for the records before it) when a record is torn, which framed records never are.
    static func forEachWrittenRecord(
        in records: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void
    ) -> Bool {
        var offset = 0
        while offset < records.count {
            guard records.count - offset >= recordHeaderBytes else { return false }
            let length = Int(readLittleEndian(records, at: offset))
            let start = offset + recordHeaderBytes
            guard records.count - start >= length else { return false }
            body(UnsafeRawBufferPointer(rebasing: records[start..<(start + length)]))
            offset = start + length
        }
        return true
    }

    /// The intact records' payloads (the events), one `Data` each, in order: what a batch file holds, to be moved
    /// into another storage.
    static func events(of bytes: UnsafeRawBufferPointer) -> [Data] {
        var events: [Data] = []
        forEachIntactRecord(in: bytes) { events.append(Data($0)) }
        return events
    }

    /// Calls `body` with each intact record's payload and the offset just past it, stopping at the first record
    /// that is torn, fails its checksum, or does not look like a JSON object. `bytes` must start with ``magic``.
    private static func forEachRecord(
        in bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Int) -> Void
    ) {
        var offset = magic.count
        while bytes.count - offset >= recordHeaderBytes {
            let length = Int(readLittleEndian(bytes, at: offset))
            let expected = readLittleEndian(bytes, at: offset + 4)
            let start = offset + recordHeaderBytes
            guard length >= 2, bytes.count - start >= length else { return }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)])
            guard payload[0] == UInt8(ascii: "{"), payload[length - 1] == UInt8(ascii: "}"),
                CRC32.checksum(payload) == expected
            else { return }
            offset = start + length
            body(payload, offset)
        }
    }

    private static func appendLittleEndian(_ value: UInt32, to buffer: inout [UInt8]) {
        buffer.append(UInt8(truncatingIfNeeded: value))
        buffer.append(UInt8(truncatingIfNeeded: value >> 8))
        buffer.append(UInt8(truncatingIfNeeded: value >> 16))
        buffer.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    private static func readLittleEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }
}
