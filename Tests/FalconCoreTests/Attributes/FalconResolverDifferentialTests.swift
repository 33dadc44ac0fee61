import FalconCore
import TestSupport
import Testing

/// The resolver's fast paths (issue 13) against the definitions they shortcut, on random input: trimming by
/// `Character`, the 128-character diagnostics cap and the four-step lookup.
@Suite("Attribute resolver, differential")
struct FalconResolverDifferentialTests {
    /// Whitespace of every kind, scalars that join into clusters (combining marks, a prepended mark, CR LF,
    /// emoji with joiners) and printable ASCII.
    static let alphabet: [String] = [
        " ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{1C}", "\u{1F}", "\u{85}", "\u{A0}", "\u{2028}",
        "\u{3000}", "\u{FEFF}", "\u{301}", "\u{600}", "\u{200D}", "\u{1F600}", "\u{E9}", "a", "Z", "0", "/", "-",
        "_", ".", "~", "%", "x",
    ]

    static func randomText(_ random: inout SplitMix64, maxLength: Int = 10) -> String {
        let length = Int(random.next() % UInt64(maxLength + 1))
        return (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
    }

    /// Trimming as spec §c defines it: by `Character`, whitespace and newlines.
    static func referenceNormalize(_ text: String) -> String? {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return nil }
        return String(text[first...last])
    }

    @Test func identifiersTrimLikeCharacters() {
        var random = SplitMix64(seed: 21)
        for _ in 0..<20_000 {
            let view = Self.randomText(&random)
            let resolved = FalconAttributeResolver.resolve(
                ["placement_details": ["view": .string(view)], "user_details": ["city": .string(view)]], mapping: [:])
            let expected = Self.referenceNormalize(view)
            #expect(resolved.view == expected, "\(Array(view.unicodeScalars))")
            #expect(resolved.userAttributes.first?.value == expected)
        }
    }

    @Test func diagnosticsCapCountsCharacters() {
        var random = SplitMix64(seed: 22)
        for _ in 0..<3_000 {
            let view = "v" + Self.randomText(&random, maxLength: 200) + "v"
            let resolved = FalconAttributeResolver.resolve(["placement_details": ["view": .string(view)]], mapping: [:])
            let expected = view.count > 128 ? String(view.prefix(128)) : view
            #expect(resolved.diagnosticPlacement == expected)
        }
    }

    @Test func placementIdAgreesWithTheTrace() {
        var random = SplitMix64(seed: 23)
        let names = ["", " ", "V", "L", "L/V", "V2", " p ", "p"]
        func pick() -> String { names[Int(random.next() % UInt64(names.count))] }
        for _ in 0..<20_000 {
            var mapping: [String: String] = [:]
            for _ in 0..<Int(random.next() % 4) { mapping[pick()] = pick() }
            let view = random.next() % 4 == 0 ? nil : pick()
            let layoutId = random.next() % 4 == 0 ? nil : pick()
            #expect(
                FalconAttributeResolver.placementId(view: view, layoutId: layoutId, mapping: mapping)
                    == FalconAttributeResolver.explain(view: view, layoutId: layoutId, mapping: mapping).placementId)
        }
    }
}
