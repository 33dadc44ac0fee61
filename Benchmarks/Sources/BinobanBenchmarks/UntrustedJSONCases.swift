import BenchmarkSupport
import BinobanCore
@_spi(Tooling) import FalconCore
import Foundation

/// Hostile JSON texts of about 64 KiB, the limit of untrusted input (Decision 0005), plus a few just over it.
enum HostileJSON {
    static let size = JSONParsingLimits.defaultMaximumBytes

    /// Repeats `unit` (joined by commas inside one array) until the text is about `size` bytes.
    static func array(of unit: String, size: Int = size) -> String {
        let count = max(1, (size - 2) / (unit.utf8.count + 1))
        return "[" + Array(repeating: unit, count: count).joined(separator: ",") + "]"
    }

    static var texts: [(name: String, text: String)] {
        let nest63 = String(repeating: "[", count: 63) + String(repeating: "]", count: 63)
        let objects63 = String(repeating: #"{"a":"#, count: 62) + "1" + String(repeating: "}", count: 62)
        return [
            ("nested arrays, 63 levels, repeated", array(of: nest63)),
            ("nested objects, 62 levels, repeated", array(of: objects63)),
            ("500 nested arrays (rejected)", String(repeating: "[", count: 500) + String(repeating: "]", count: 500)),
            (
                "32 768 nested arrays (rejected)",
                String(repeating: "[", count: 32_768) + String(repeating: "]", count: 32_768)
            ),
            ("escaped strings", array(of: #""\u00e9\ud83d\ude00\n\"\\x""#)),
            ("numbers", array(of: "-1.2345678901234567e-300")),
            ("integers", array(of: "123456789012345678")),
            ("wide object", "{" + (0..<5_000).map { #""k\#($0)":1"# }.joined(separator: ",") + "}"),
            ("empty containers", array(of: "[{},[]]")),
            ("over the size limit (rejected)", array(of: "1", size: size + 10)),
        ]
    }
}

/// The slowest of the hostile texts through each untrusted entry point, in milliseconds (target: below 5).
struct UntrustedJSONCase: BenchmarkCase {
    var name: String { "slowest 64 KiB hostile JSON through parser, bridge and push (ms)" }
    var unit: String { "ms" }
    var higherIsBetter: Bool { false }
    var target: Double? { 5 }

    func sample() async -> Double {
        var slowest = 0.0
        for (_, text) in HostileJSON.texts {
            slowest = max(slowest, Self.milliseconds { blackHole(try? JSONValue(parsing: text)) })
            slowest = max(slowest, Self.milliseconds { blackHole(FalconBridgeMessage.decode(json: text)) })
            let userInfo: JSONValue = [
                "source": "binoban", "binoban_notification_uuid": "n-1", "binoban_actions": .string(text),
            ]
            slowest = max(slowest, Self.milliseconds { blackHole(BinobanPushPayload.parse(userInfo)) })
        }
        return slowest
    }

    static func milliseconds(_ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        body()
        let elapsed = start.duration(to: clock.now).components
        return (Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18) * 1000
    }
}

/// Prints each hostile text's time through the parser and through `JSONDecoder` with `JSONValue: Decodable`.
enum UntrustedJSONReport {
    static func print() {
        for (name, text) in HostileJSON.texts {
            let data = Data(text.utf8)
            var parse = Double.infinity
            var decode = Double.infinity
            for _ in 0..<3 {
                parse = min(parse, UntrustedJSONCase.milliseconds { blackHole(try? JSONValue(parsing: text)) })
                decode = min(
                    decode,
                    UntrustedJSONCase.milliseconds { blackHole(try? JSONDecoder().decode(JSONValue.self, from: data)) }
                )
            }
            Swift.print("  \(name) (\(data.count) bytes): parser \(format(parse)) ms, Decodable \(format(decode)) ms")
        }
    }
}
