/// The normalization `N(x)` of spec §c and the 128-character diagnostics cap.
enum FalconIdentifier: Sendable {
    /// The diagnostics cap for `placement` and `layoutId`, in grapheme clusters (`Character`s).
    static let diagnosticsCap = 128

    /// A string trimmed of whitespace and newlines, or `nil` when the value is not a string or is empty
    /// after trimming. Numbers and booleans are never stringified here (identifiers must be strings).
    static func normalize(_ value: JSONValue?) -> String? {
        guard case .string(let text)? = value else { return nil }
        return normalize(text)
    }

    /// `text` trimmed of whitespace and newlines, or `nil` when nothing is left.
    static func normalize(_ text: String) -> String? {
        let trimmed = trim(text)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `text` without leading and trailing whitespace or newlines (by `Character`).
    ///
    /// A `Character` is whitespace when its first scalar is, and no grapheme cluster joins a whitespace scalar
    /// to a following printable ASCII one; so when the first and the last UTF-8 byte are printable ASCII
    /// there is nothing to trim, and the common case costs two byte reads instead of a grapheme walk.
    static func trim(_ text: String) -> String {
        var bytes = text
        // One look at the contiguous UTF-8 (a small string is copied to the stack) instead of two index walks.
        let untouched = bytes.withUTF8 { utf8 in
            guard let first = utf8.first, let last = utf8.last else { return false }
            return isPrintableASCII(first) && isPrintableASCII(last)
        }
        if untouched { return text }
        guard let first = text.firstIndex(where: { !$0.isWhitespace }) else { return "" }
        guard let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(text[first...last])
    }

    /// ASCII other than the whitespace controls (tab through carriage return) and space.
    private static func isPrintableASCII(_ byte: UInt8) -> Bool {
        byte < 0x80 && byte != 0x20 && !(0x09...0x0D).contains(byte)
    }

    /// The diagnostics byte ceiling for `placement` and `layoutId`, in UTF-8 bytes: 64 bytes per character of
    /// the cap, above the longest real grapheme cluster (an emoji ZWJ sequence with skin tones is 35 bytes),
    /// so only a cluster loaded with hundreds of combining marks reaches it.
    static let diagnosticsByteCeiling = 8 * 1024

    /// The first 128 grapheme clusters of `text`, within ``diagnosticsByteCeiling`` bytes of UTF-8.
    ///
    /// When 128 clusters take more bytes than the ceiling, the value keeps as many whole clusters as fit; when
    /// not even the first one fits, it keeps the Unicode scalars of that cluster that fit. The walk never looks
    /// past the ceiling, so its cost does not grow with the length of `text`.
    static func capped(_ text: String?) -> String? {
        guard let text else { return nil }
        // A cluster is at least one byte: 128 bytes or fewer cannot exceed the cap (and need no count).
        guard text.utf8.count > diagnosticsCap else { return text }
        let utf8 = text.utf8
        let windowEnd: String.Index
        if utf8.count <= diagnosticsByteCeiling {
            windowEnd = text.endIndex
        } else {
            // The ceiling, moved back to the start of a scalar (at most three continuation bytes).
            var cut = utf8.index(utf8.startIndex, offsetBy: diagnosticsByteCeiling)
            while utf8[cut] & 0xC0 == 0x80 { cut = utf8.index(before: cut) }
            windowEnd = cut
        }
        let window = text[..<windowEnd]
        var end = window.startIndex
        var kept = 0
        var previousEnd = end
        while kept < diagnosticsCap, end < window.endIndex {
            previousEnd = end
            end = window.index(after: end)
            kept += 1
        }
        if windowEnd == text.endIndex || end < window.endIndex {
            // Every boundary before the window's end is a boundary of `text` as well.
            return end == text.endIndex ? text : String(window[..<end])
        }
        // The last cluster reaches the cut and may continue past it: keep the clusters before it.
        if kept > 1 { return String(window[..<previousEnd]) }
        return String(window)
    }

    /// Splits `text` at the first `://` into scheme and the rest, or `nil` when there is none.
    static func splitScheme(_ text: String) -> (scheme: Substring, rest: Substring)? {
        var index = text.startIndex
        while let colon = text[index...].firstIndex(of: ":") {
            let rest = text[text.index(after: colon)...]
            if rest.hasPrefix("//") { return (text[..<colon], rest.dropFirst(2)) }
            index = text.index(after: colon)
        }
        return nil
    }
}
