import BinobanCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The text of `sdkcore binoban backlog`: one line per batch file, then the totals.
///
/// ```
/// S-00000000000000000001.batch  finished  2 500 events  498 211 bytes  oldest event 3 h 12 min old
/// total: 2 batches, 2 600 events, 517 001 bytes; oldest event 3 h 12 min old (2026-12-05T05:40:00.000Z)
/// ```
///
/// An event's age is its `timestamp`'s distance to `now`; an event without a readable timestamp has no age.
struct BacklogListing {
    let now: Date
    private var lines: [String] = []
    private var batches = 0
    private var events = 0
    private var bytes = 0
    private var tornBytes = 0
    private var oldest: (date: Date, text: String)?

    init(now: Date) {
        self.now = now
    }

    /// Adds `batch`, whose intact events are `events`.
    mutating func add(_ batch: StoredBacklogBatch, events: [Data]) {
        var batchOldest: (date: Date, text: String)?
        for event in events {
            guard let stamp = Self.timestamp(of: event) else { continue }
            if batchOldest.map({ stamp.date < $0.date }) ?? true { batchOldest = stamp }
        }
        var line =
            "\(batch.fileName)  \(batch.isOpen ? "open" : "finished")  \(Self.count(batch.eventCount, "event"))"
            + "  \(Self.count(batch.fileBytes, "byte"))"
        if let batchOldest { line += "  oldest event \(Self.age(from: batchOldest.date, to: now)) old" }
        if batch.tornBytes > 0 { line += "  (\(Self.count(batch.tornBytes, "byte")) after the last intact event)" }
        lines.append(line)
        batches += 1
        self.events += batch.eventCount
        bytes += batch.fileBytes
        tornBytes += batch.tornBytes
        if let batchOldest, oldest.map({ batchOldest.date < $0.date }) ?? true { oldest = batchOldest }
    }

    /// The listing, each line ending in a newline.
    func text(directory: String, source: String) -> String {
        guard batches > 0 else { return "no stored batches for source \(source) in \(directory)\n" }
        var total =
            "total: \(Self.count(batches, "batch", "batches")), \(Self.count(events, "event")), "
            + Self.count(bytes, "byte")
        if let oldest { total += "; oldest event \(Self.age(from: oldest.date, to: now)) old (\(oldest.text))" }
        return (lines + [total]).joined(separator: "\n") + "\n"
    }

    /// The `timestamp` of an encoded event, read as the SDK writes it (ISO 8601 with milliseconds).
    static func timestamp(of event: Data) -> (date: Date, text: String)? {
        guard let value = try? JSONValue(parsing: event, limits: .untrusted),
            let text = value["timestamp"]?.stringValue
        else { return nil }
        let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        guard let date = (try? withFraction.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text)) else {
            return nil
        }
        return (date, text)
    }

    /// `45 s`, `12 min`, `3 h 12 min`, `2 d 4 h`; a time in the future reads `0 s`.
    static func age(from date: Date, to now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "\(seconds) s"
        case ..<3_600: return "\(seconds / 60) min"
        case ..<86_400: return "\(seconds / 3_600) h \(seconds % 3_600 / 60) min"
        default: return "\(seconds / 86_400) d \(seconds % 86_400 / 3_600) h"
        }
    }

    /// `1 event`, `2 events`.
    private static func count(_ number: Int, _ one: String, _ many: String? = nil) -> String {
        "\(number) \(number == 1 ? one : many ?? one + "s")"
    }
}
