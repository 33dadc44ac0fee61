#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits the input of `sdkcore binoban send` into lines (`\n`, with a trailing `\r` removed) in time linear in
/// the input, keeping at most ``maximumLineBytes`` bytes of an unfinished line.
///
/// A line that grows past the limit is reported (``Piece/tooLong``) as soon as it does; the rest of it is read
/// and discarded up to its newline, never kept. The splitter also keeps the running ``InputHash`` of the lines
/// it has ended, so a checkpoint can name the input it was written for.
struct LineSplitter: Sendable {
    /// What the splitter found in the input, in input order.
    enum Piece: Sendable, Equatable {
        /// A complete line, without its newline and trailing `\r`, and the hash of the input up to and
        /// including it.
        case line([UInt8], hashThroughLine: UInt64)
        /// A line that passed ``maximumLineBytes``; the rest of it is skipped.
        case tooLong
    }

    /// The longest line kept, in bytes before the newline (a trailing `\r` included).
    let maximumLineBytes: Int
    private var carry: [UInt8] = []
    /// Whether the current line passed the limit and is being skipped.
    private var discarding = false
    private var hash = InputHash()

    /// A splitter that keeps lines of at most `maximumLineBytes` bytes.
    init(maximumLineBytes: Int) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// The pieces that `chunk` completes, in order. Each byte is looked at a constant number of times.
    mutating func pieces(in chunk: [UInt8]) -> [Piece] {
        var pieces: [Piece] = []
        var start = chunk.startIndex
        while start < chunk.endIndex {
            let newline = Self.firstNewline(in: chunk, from: start)
            take(chunk[start..<(newline ?? chunk.endIndex)], into: &pieces)
            guard let newline else { break }
            endLine(into: &pieces)
            start = newline + 1
        }
        return pieces
    }

    /// The index of the first `\n` at or after `start` (`memchr`, fast in debug builds too).
    private static func firstNewline(in chunk: [UInt8], from start: Int) -> Int? {
        chunk.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, start < buffer.count,
                let found = memchr(base + start, 0x0A, buffer.count - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// The last line when the input does not end with a newline.
    mutating func finish() -> Piece? {
        guard discarding || !carry.isEmpty else { return nil }
        var pieces: [Piece] = []
        endLine(into: &pieces)
        return pieces.first
    }

    /// Adds the part of a line that `bytes` holds (no newline inside).
    private mutating func take(_ bytes: ArraySlice<UInt8>, into pieces: inout [Piece]) {
        if discarding {
            hash.add(partOfLongLine: bytes)
        } else if carry.count + bytes.count > maximumLineBytes {
            hash.add(partOfLongLine: carry[...])
            hash.add(partOfLongLine: bytes)
            carry.removeAll(keepingCapacity: false)
            discarding = true
            pieces.append(.tooLong)
        } else {
            carry.append(contentsOf: bytes)
        }
    }

    /// Ends the current line at a newline (or at the end of the input).
    private mutating func endLine(into pieces: inout [Piece]) {
        if discarding {
            hash.endLine()
            discarding = false
            return
        }
        var line = carry
        if line.last == 0x0D { line.removeLast() }
        hash.add(line: line[...])
        pieces.append(.line(line, hashThroughLine: hash.value))
        carry.removeAll(keepingCapacity: true)
    }
}
