import Foundation
import FuzzSupport
import SDKCoreCommon

// JSON text from untrusted sources: JSONValue(parsing:) and, on the same bytes, JSONValue's Decodable.
// Invariant: what the parser accepts, written back with jsonString(), parses to the same value.

/// Runs one input (what it covers is at the top of this file); always returns 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let bytes = Data(input.bytes)
    if let value = try? JSONValue(parsing: bytes) {
        let written = value.jsonString()
        let reparsed = try? JSONValue(parsing: written, limits: JSONParsingLimits(maximumBytes: .max))
        require(reparsed == value, "the written text of a parsed value parses to the same value")
    }
    _ = try? JSONDecoder().decode(JSONValue.self, from: bytes)
    return 0
}
