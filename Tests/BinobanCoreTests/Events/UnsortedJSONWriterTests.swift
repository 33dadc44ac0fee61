import SDKCoreCommon
import Testing

@testable import BinobanCore

/// The event writer's strings: copied in one step when nothing needs escaping, escaped by the shared writer
/// otherwise, the same text either way as the sorted writer gives.
@Suite("The event writer's strings")
struct UnsortedJSONWriterTests {
    @Test(
        "A string is written as the shared writer writes it, small or large, plain or with escapes",
        arguments: [
            "", "shoes", "purchase completed at the checkout page", "é😀 non-ASCII", "q\"uote", "back\\slash",
            "line\nbreak", "\u{01}control", String(repeating: "long ", count: 40) + "\t",
        ])
    func stringsMatchTheSharedWriter(text: String) {
        var unsorted: [UInt8] = []
        UnsortedJSONWriter.appendString(text, to: &unsorted)
        var shared: [UInt8] = []
        JSONWriter.appendString(text, to: &shared)
        #expect(unsorted == shared)
    }

    @Test("A string written after other bytes is appended, not written over them")
    func appends() {
        var bytes = Array("{".utf8)
        UnsortedJSONWriter.appendString("k", to: &bytes)
        UnsortedJSONWriter.appendString("a\"b", to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"k""a\"b""#)
    }
}
