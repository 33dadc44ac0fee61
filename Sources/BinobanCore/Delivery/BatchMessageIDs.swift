#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the `messageId` of each event out of a stored batch (`{…},{…}`), for the delivery observer, of a batch
/// whose ids never passed through this process (a previous run's: this run's ids travel with the events,
/// Decision 0219). Only the members of the top-level objects are looked at, so a `messageId` key inside
/// properties or context is not mistaken for the event's. One pass over the bytes, without building the events.
enum BatchMessageIDs {
    private static let key = Array("messageId".utf8)

    /// The top-level `messageId` strings, in the batch's order (an event without one adds nothing).
    static func messageIds(in events: Data) -> [String] {
        events.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var ids: [String] = []
            var depth = 0
            // At depth 1, whether the next string is a member's name.
            var atName = false
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    atName = depth == 1 && bytes[index] == UInt8(ascii: "{")
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    index += 1
                case UInt8(ascii: ","):
                    atName = depth == 1
                    index += 1
                case UInt8(ascii: "\""):
                    let end = stringEnd(bytes, from: index)
                    let isIdName =
                        atName && end - index - 1 == key.count
                        && key.indices.allSatisfy { bytes[index + 1 + $0] == key[$0] }
                    atName = false
                    index = end + 1
                    guard isIdName else { continue }
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        // Past the colon and any space; a value that is not a string ends the search here.
                        guard bytes[index] == UInt8(ascii: ":") || bytes[index] == UInt8(ascii: " ") else { break }
                        index += 1
                    }
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { continue }
                    let valueEnd = stringEnd(bytes, from: index)
                    if let id = decodeString(
                        UnsafeBufferPointer(rebasing: bytes[index...min(valueEnd, bytes.count - 1)]))
                    {
                        ids.append(id)
                    }
                    index = valueEnd + 1
                default:
                    index += 1
                }
            }
            return ids
        }
    }

    /// The index of the quote that closes the string opening at `start` (or the end of the bytes).
    private static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index
            default: index += 1
            }
        }
        return bytes.count
    }

    /// A quoted JSON string's value: the bytes themselves when nothing is escaped, else the JSON parser's reading.
    private static func decodeString(_ quoted: UnsafeBufferPointer<UInt8>) -> String? {
        guard quoted.count >= 2, quoted.last == UInt8(ascii: "\"") else { return nil }
        let inner = UnsafeBufferPointer(rebasing: quoted[1..<(quoted.count - 1)])
        if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
        return (try? JSONValue(parsing: String(decoding: quoted, as: UTF8.self)))?.stringValue
    }
}
