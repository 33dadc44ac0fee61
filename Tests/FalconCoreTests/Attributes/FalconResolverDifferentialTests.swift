@_spi(Tooling) import FalconCore
import TestSupport
import Testing

/// The resolver's fast paths against the definitions they shortcut, on random input: trimming by
/// `Character`, the 128-character diagnostics cap, the four-step lookup and the one-pass `user_details` items.
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

    /// Keys whose byte order and `String` order can differ: ASCII of every kind (controls, NUL, long shared
    /// prefixes), precomposed and decomposed letters, U+212A KELVIN SIGN (canonically `K`), U+037E (canonically
    /// `;`) and emoji.
    static let keyPieces: [String] = [
        "\u{0}", "\t", " ", "!", "/", "0", "9", ";", "A", "K", "Z", "_", "a", "e", "k", "z", "~", "\u{7F}", "ab",
        "abcdefgh", "abcdefghijklmnop", "\u{E9}", "e\u{301}", "\u{301}", "\u{212A}", "\u{37E}", "\u{1F600}", "\u{C5}",
    ]

    /// The sorted part of the URL (the members other than the renamed ones) is in `String <` order of the names
    /// for every mix of keys, including ones whose byte order differs from that order.
    @Test func otherMembersSortLikeStringComparison() {
        var random = SplitMix64(seed: 26)
        let asciiPieces = Self.keyPieces.filter { $0.utf8.allSatisfy { $0 < 0x80 } }
        for _ in 0..<5_000 {
            var details: [String: JSONValue] = [:]
            let asciiOnly = random.next() % 2 == 0
            for _ in 0..<Int(random.next() % 12) {
                var key = ""
                for _ in 0..<Int(1 + random.next() % 4) {
                    let pieces = asciiOnly ? asciiPieces : Self.keyPieces
                    key += pieces[Int(random.next() % UInt64(pieces.count))]
                }
                details[key] = "v"
            }
            let names = FalconAttributeResolver.resolve(["user_details": .object(details)], mapping: [:])
                .userAttributes.map(\.name)
            #expect(
                names == details.keys.map { "at." + $0 }.sorted(), "\(details.keys.map { Array($0.unicodeScalars) })")
        }
    }

    /// `user_details` as the resolver produced it before the one-pass rewrite: the renamed keys looked up first,
    /// then every other member in sorted key order, a literal `firstname`/`lastname` skipped when the mapped key
    /// carried a value. Values are the canonical texts of the alphabet below.
    static func referenceUserItems(_ details: [String: JSONValue]) -> ([FalconQueryItem], Int) {
        func text(_ value: JSONValue) -> String? {
            switch value {
            case .string(let text): referenceNormalize(text)
            case .bool(let flag): flag ? "true" : "false"
            case .int(let number): String(number)
            case .double(let number): doubleSpellings.first { $0.0 == number }?.1
            case .null, .array, .object: nil
            }
        }
        var items: [FalconQueryItem] = []
        var used: [String] = []
        var dropped = 0
        for (source, target) in [("email", "email"), ("first_name", "firstname"), ("last_name", "lastname")] {
            guard let raw = details[source] else { continue }
            if let value = text(raw) {
                items.append(FalconQueryItem(name: "at." + target, value: value))
                used.append(target)
            } else {
                dropped += 1
            }
        }
        for key in details.keys.sorted() where !["email", "first_name", "last_name"].contains(key) {
            guard let value = details[key].flatMap(text) else {
                dropped += 1
                continue
            }
            if used.contains(key) { continue }
            items.append(FalconQueryItem(name: "at." + key, value: value))
        }
        return (items, dropped)
    }

    static let doubleSpellings: [(Double, String)] = [(2.5, "2.5"), (49.99, "49.99"), (3, "3"), (-0.125, "-0.125")]

    @Test func userDetailsMatchThePreviousAlgorithm() {
        var random = SplitMix64(seed: 24)
        let keys = [
            "email", "first_name", "last_name", "firstname", "lastname", "city", "zip", "a", "B", "a_b", "order_count",
            "\u{E9}", "e\u{301}x", "z\u{1F600}", "a long key that is not a small string",
        ]
        func value() -> JSONValue {
            switch random.next() % 9 {
            case 0: .null
            case 1: .array([.int(1)])
            case 2: .object(["k": "v"])
            case 3: .bool(random.next() % 2 == 0)
            case 4: .int(Int(truncatingIfNeeded: random.next()) >> 20)
            case 5: .double(Self.doubleSpellings[Int(random.next() % 4)].0)
            default: .string(Self.randomText(&random))
            }
        }
        for _ in 0..<20_000 {
            var details: [String: JSONValue] = [:]
            for _ in 0..<Int(random.next() % 9) { details[keys[Int(random.next() % UInt64(keys.count))]] = value() }
            let resolved = FalconAttributeResolver.resolve(["user_details": .object(details)], mapping: [:])
            let (items, dropped) = Self.referenceUserItems(details)
            #expect(resolved.userAttributes == items, "\(details)")
            #expect(resolved.droppedUserValueCount == dropped)
        }
    }

    /// The `user_details` text of a double as the JSON writer spells it (the algorithm before the short-decimal
    /// path: the integer for an integer value below 2⁵³, else the shortest round-trip `description`).
    static func referenceDoubleText(_ value: Double) -> String {
        var bytes: [UInt8] = []
        JSONWriter.appendNumber(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Random doubles of four kinds: any bit pattern, short decimals (an integer over a power of ten, which
    /// the short path takes), their neighbours one ulp away (which it must refuse or spell the same), and
    /// uniform values of ordinary magnitude.
    @Test func doublesSpellLikeTheJSONWriter() {
        var random = SplitMix64(seed: 25)
        var powers: [Double] = [1]
        for _ in 0..<9 { powers.append(powers[powers.count - 1] * 10) }
        for round in 0..<200_000 {
            let decimal =
                Double(Int64(bitPattern: random.next()) >> Int64(random.next() % 60))
                / powers[Int(random.next() % 10)]
            let value: Double =
                switch round % 5 {
                case 0: Double(bitPattern: random.next())
                case 1: decimal
                case 2: decimal.nextUp
                case 3: decimal.nextDown
                default: Double(Int64(bitPattern: random.next()) >> 40) / 4096
                }
            guard value.isFinite else { continue }
            let resolved = FalconAttributeResolver.resolve(["user_details": ["x": .double(value)]], mapping: [:])
            #expect(resolved.userAttributes.first?.value == Self.referenceDoubleText(value), "\(value.bitPattern)")
        }
        for value in [0.001, 0.0011, 0.000999, 0.5, -0.5, 49.99, 999_999_999.5, 1e9 + 0.5, 0.1 + 0.2, 1 / 3.0] {
            let resolved = FalconAttributeResolver.resolve(["user_details": ["x": .double(value)]], mapping: [:])
            #expect(resolved.userAttributes.first?.value == Self.referenceDoubleText(value), "\(value)")
        }
    }
}
