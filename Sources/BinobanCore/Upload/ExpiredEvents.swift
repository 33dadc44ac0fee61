#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Takes the events older than ``Configuration/maxEventAge`` out of a stored batch before it is uploaded.
///
/// A stored batch is its events' JSON objects joined by commas (`{…},{…}`). Each top-level object is one event;
/// its age comes from its own top-level `timestamp` member, which the encoder writes as
/// `YYYY-MM-DDTHH:MM:SS.mmmZ`. A `timestamp` inside properties or context is not looked at, and an event whose
/// timestamp cannot be read is kept: the limit never drops an event it cannot date. One pass over the bytes.
enum ExpiredEvents {
    /// A batch with its expired events taken out.
    struct Split: Sendable, Equatable {
        /// The events young enough to upload, joined by commas as stored.
        var kept: Data
        var keptCount: Int
        var expiredCount: Int
        /// The `messageId` of each expired event that has one, in the batch's order.
        var expiredIds: [String]
    }

    /// The batch without the events stamped before `cutoffMillis` (milliseconds since 1970), or `nil` when none is.
    static func split(_ events: Data, olderThanMillis cutoffMillis: Int64) -> Split? {
        let objects = topLevelObjects(in: events)
        var expired: [Range<Int>] = []
        var kept: [Range<Int>] = []
        for object in objects {
            if let stamp = timestampMillis(of: events, in: object), stamp < cutoffMillis {
                expired.append(object)
            } else {
                kept.append(object)
            }
        }
        guard !expired.isEmpty else { return nil }
        var keptBytes = Data()
        keptBytes.reserveCapacity(events.count)
        for (index, range) in kept.enumerated() {
            if index > 0 { keptBytes.append(UInt8(ascii: ",")) }
            keptBytes.append(events[events.startIndex + range.lowerBound..<events.startIndex + range.upperBound])
        }
        let ids = expired.flatMap { range in
            BatchMessageIDs.messageIds(
                in: events[events.startIndex + range.lowerBound..<events.startIndex + range.upperBound])
        }
        return Split(kept: keptBytes, keptCount: kept.count, expiredCount: expired.count, expiredIds: ids)
    }

    /// The byte ranges (offsets from the start) of the top-level objects.
    static func topLevelObjects(in events: Data) -> [Range<Int>] {
        events.withUnsafeBytes { raw in
            var ranges: [Range<Int>] = []
            var depth = 0
            var start = 0
            var index = 0
            var inString = false
            while index < raw.count {
                let byte = raw[index]
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        index += 2
                        continue
                    }
                    if byte == UInt8(ascii: "\"") { inString = false }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        if depth == 0 { start = index }
                        depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { ranges.append(start..<index + 1) }
                    default: break
                    }
                }
                index += 1
            }
            return ranges
        }
    }

    private static let key = Array("\"timestamp\"".utf8)

    /// The top-level `timestamp` of the object at `range`, in milliseconds since 1970.
    static func timestampMillis(of events: Data, in range: Range<Int>) -> Int64? {
        events.withUnsafeBytes { raw -> Int64? in
            var depth = 0
            var index = range.lowerBound
            // Whether the next string at depth 1 is a member's name.
            var atName = false
            while index < range.upperBound {
                let byte = raw[index]
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    atName = depth == 1
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    index += 1
                case UInt8(ascii: ","):
                    atName = depth == 1
                    index += 1
                case UInt8(ascii: "\""):
                    let end = stringEnd(raw, from: index, limit: range.upperBound)
                    let isKey =
                        atName && end + 1 - index == key.count
                        && key.indices.allSatisfy { raw[index + $0] == key[$0] }
                    atName = false
                    index = end + 1
                    guard isKey else { continue }
                    while index < range.upperBound, raw[index] == UInt8(ascii: ":") || raw[index] == UInt8(ascii: " ") {
                        index += 1
                    }
                    guard index < range.upperBound, raw[index] == UInt8(ascii: "\"") else { return nil }
                    let valueEnd = stringEnd(raw, from: index, limit: range.upperBound)
                    return parse(UnsafeRawBufferPointer(rebasing: raw[index + 1..<valueEnd]))
                default:
                    index += 1
                }
            }
            return nil
        }
    }

    /// The index of the quote that closes the string opened at `start` (or `limit` − 1 when it is not closed).
    private static func stringEnd(_ raw: UnsafeRawBufferPointer, from start: Int, limit: Int) -> Int {
        var index = start + 1
        while index < limit {
            if raw[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if raw[index] == UInt8(ascii: "\"") { return index }
            index += 1
        }
        return limit - 1
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` (the fraction optional, 1 to 3 digits) as milliseconds since 1970.
    static func parse(_ text: UnsafeRawBufferPointer) -> Int64? {
        func number(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= text.count else { return nil }
            var value: Int64 = 0
            for index in from..<from + count {
                let digit = Int64(text[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard text.count >= 20, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
            text[10] == UInt8(ascii: "T"), text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"),
            text[text.count - 1] == UInt8(ascii: "Z"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var millis: Int64 = 0
        let fraction = text.count - 21
        if text.count > 20 {
            guard text[19] == UInt8(ascii: "."), (1...3).contains(fraction), let digits = number(20, fraction) else {
                return nil
            }
            millis = digits * [100, 10, 1][fraction - 1]
        }
        // Days from the civil date (the proleptic Gregorian calendar), counted from 1970-01-01.
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis
    }
}
