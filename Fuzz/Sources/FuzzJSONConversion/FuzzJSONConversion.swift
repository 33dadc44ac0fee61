import Foundation
import FuzzSupport
import SDKCoreCommon

// JSONValue.convert of loosely typed [String: Any] trees, as hosts pass attributes, properties, traits and
// push userInfo: every Swift type the converter knows, with any bit pattern (NaN, infinities, far dates),
// non-string keys, optionals and arbitrary objects. Invariant: the converted value writes JSON that parses.

private final class Opaque {}

private func element(_ input: inout FuzzInput, depth: Int) -> Any {
    switch input.choice(24) {
    case 0: return input.string()
    case 1: return Int(truncatingIfNeeded: input.uint64())
    case 2: return input.double()
    case 3: return Float(bitPattern: UInt32(truncatingIfNeeded: input.uint64()))
    case 4: return Date(timeIntervalSince1970: input.double())
    case 5: return input.bool()
    case 6: return input.uint64()
    case 7: return UInt(truncatingIfNeeded: input.uint64())
    case 8: return Int8(truncatingIfNeeded: input.byte())
    case 9: return Int64(bitPattern: input.uint64())
    case 10: return Decimal(string: input.string(limit: 40)) ?? Decimal(0)
    case 11: return URL(string: input.string()) ?? URL(fileURLWithPath: "/")
    case 12: return UUID()
    case 13: return Optional<Int>.none as Any
    case 14: return Character("\u{1F600}")
    case 15: return input.string()[...]
    case 16: return Opaque()
    case 17: return JSONValue.string(input.string())
    case 18: return UInt32(truncatingIfNeeded: input.uint64())
    default:
        guard depth < 200, !input.isAtEnd else { return input.byte() }
        switch input.choice(3) {
        case 0: return (0..<input.choice(6)).map { _ in element(&input, depth: depth + 1) }
        case 1: return dictionary(&input, depth: depth + 1)
        default:
            var any: [AnyHashable: Any] = [:]
            for _ in 0..<input.choice(6) {
                let key: AnyHashable = input.bool() ? AnyHashable(input.string(limit: 8)) : AnyHashable(input.byte())
                any[key] = element(&input, depth: depth + 1)
            }
            return any
        }
    }
}

private func dictionary(_ input: inout FuzzInput, depth: Int) -> [String: Any] {
    var dictionary: [String: Any] = [:]
    for _ in 0..<input.choice(8) { dictionary[input.string(limit: 16)] = element(&input, depth: depth) }
    return dictionary
}

/// Runs one input (what it covers is at the top of this file); always returns 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONConversion(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let tree = dictionary(&input, depth: 0)
    let converted = JSONValue.convert(tree)
    let text = converted.value.jsonString()
    let limits = JSONParsingLimits(maximumBytes: .max, maximumDepth: 10_000)
    require((try? JSONValue(parsing: text, limits: limits)) != nil, "converted values write valid JSON")
    _ = converted.issues.map(\.description)
    _ = JSONValue.convert(any: element(&input, depth: 0))
    return 0
}
