@_spi(Tooling) import FalconCore
import Foundation
import TestSupport
import Testing

/// The byte-scanning encoder and the one-buffer URL builder against the straightforward algorithms they replaced
/// and against Foundation, on random text: ASCII, separators, percent signs, non-ASCII, combining marks,
/// emoji sequences and replacement characters. The URL bytes must not change.
@Suite("Percent-encoding, differential")
struct FalconPercentEncoderDifferentialTests {
    /// Scalars that exercise every branch: unreserved, reserved, controls, `%` runs that look like escapes,
    /// two-, three- and four-byte UTF-8, a replacement character and joiners.
    static let alphabet: [Unicode.Scalar] =
        (0...0x7F).compactMap { Unicode.Scalar(UInt32($0)) }
        + [
            "\u{A0}", "\u{E9}", "\u{301}", "\u{600}", "\u{FFFD}", "\u{200D}", "\u{3000}", "\u{2028}", "\u{FEFF}",
            "\u{1F600}", "\u{1F1FA}", "\u{1F1F8}", "\u{10FFFF}", "%", "%", "+", "&", "=",
        ]

    static func randomText(_ random: inout SplitMix64, maxLength: Int = 24) -> String {
        let length = Int(random.next() % UInt64(maxLength + 1))
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length { scalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
        return String(scalars)
    }

    /// The straightforward encoder: one `String` per call, a fresh hex table per call.
    static func previousEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    @Test func encoderMatchesThePreviousAlgorithmAndFoundation() {
        var random = SplitMix64(seed: 13)
        for _ in 0..<20_000 {
            let text = Self.randomText(&random)
            let encoded = FalconPercentEncoder.encode(text)
            #expect(encoded == Self.previousEncode(text), "\(Array(text.unicodeScalars))")
            #expect(encoded == text.addingPercentEncoding(withAllowedCharacters: Self.unreserved))
        }
    }

    @Test func bridgedAndSubstringBackedTextEncodeTheSame() {
        var random = SplitMix64(seed: 14)
        for _ in 0..<2_000 {
            let text = Self.randomText(&random)
            // Sliced by scalar, so the cut never merges with a combining mark as a `Character` cut would.
            let padded = ("x" + text + "y").unicodeScalars
            let sliced = String(padded[padded.index(after: padded.startIndex)..<padded.index(before: padded.endIndex)])
            let bridged = NSString(string: text) as String
            #expect(FalconPercentEncoder.encode(sliced) == Self.previousEncode(text))
            #expect(FalconPercentEncoder.encode(bridged) == Self.previousEncode(text))
        }
    }

    /// The URL text as one `String` concatenation per piece.
    static func previousURLText(
        apiKey: String, placement: String, session: String, attributes: [FalconQueryItem], sandbox: Bool,
        style: FalconStyle?
    ) -> String {
        var pairs = [("placement", placement), ("apiKey", apiKey), ("sessionId", session)]
        pairs += attributes.map { ($0.name, $0.value) }
        if sandbox { pairs.append(("sandbox", "true")) }
        if let fontFamily = style?.fontFamily { pairs.append(("style.fontFamily", fontFamily)) }
        var text = "https://pr.falconlabs.us/ui/webview?"
        for (index, pair) in pairs.enumerated() {
            if index > 0 { text += "&" }
            text += previousEncode(pair.0) + "=" + previousEncode(pair.1)
        }
        return text
    }

    @Test func urlBytesAreUnchanged() throws {
        var random = SplitMix64(seed: 15)
        for _ in 0..<5_000 {
            let attributes = (0..<Int(random.next() % 6)).map { _ in
                FalconQueryItem(name: "at." + Self.randomText(&random, maxLength: 8), value: Self.randomText(&random))
            }
            let apiKey = "K" + Self.randomText(&random, maxLength: 6) + "Y"
            let placement = "p" + Self.randomText(&random)
            let session = Self.randomText(&random, maxLength: 36)
            let sandbox = random.next() % 2 == 0
            let style = random.next() % 2 == 0 ? FalconStyle(fontFamily: Self.randomText(&random)) : nil
            let built = FalconWebviewURLBuilder.build(
                baseURL: URL(string: "https://pr.falconlabs.us/")!, apiKey: apiKey, placementId: placement,
                sessionId: session, userAttributes: attributes, isSandbox: sandbox, style: style)
            let expected = Self.previousURLText(
                apiKey: apiKey, placement: placement, session: session, attributes: attributes, sandbox: sandbox,
                style: style)
            #expect(try built.get().absoluteString == expected)
        }
    }

    /// The base-URL rule walking `Character`s, with the cleartext rule: `http` only for a loopback host
    /// (Docs/Decisions/0010).
    static func previousWebviewBase(_ text: String) -> String? {
        guard !text.contains("?"), !text.contains("#") else { return nil }
        var index = text.startIndex
        var split: (Substring, Substring)?
        while let colon = text[index...].firstIndex(of: ":") {
            let rest = text[text.index(after: colon)...]
            if rest.hasPrefix("//") {
                split = (text[..<colon], rest.dropFirst(2))
                break
            }
            index = text.index(after: colon)
        }
        guard let (rawScheme, rest) = split else { return nil }
        let scheme = rawScheme.lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let host = hostAndPort.hasPrefix("[") ? hostAndPort : (hostAndPort.split(separator: ":").first ?? "")
        guard !host.isEmpty else { return nil }
        let bareHost =
            hostAndPort.hasPrefix("[")
            ? hostAndPort.prefix { $0 != "]" } + (hostAndPort.contains("]") ? "]" : "")
            : hostAndPort.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard scheme == "https" || ["127.0.0.1", "localhost", "[::1]"].contains(bareHost.lowercased()) else {
            return nil
        }
        var path = String(rest[authorityEnd...])
        while path.hasSuffix("/") { path.removeLast() }
        return "\(scheme)://\(authority)\(path)/ui/webview"
    }

    @Test func baseURLRuleIsUnchanged() throws {
        var random = SplitMix64(seed: 16)
        let pieces = [
            "http", "https", "HTTP", "Https", "ftp", ":", "//", "/", "@", "[", "]", "::1", "host", "h.example", ":8080",
            "?", "#", "%41", "x", "", "\u{E9}", "\r\n", "localhost", "LocalHost", "127.0.0.1", "[::1]",
        ]
        var checked = 0
        for _ in 0..<20_000 {
            let text = (0..<Int(random.next() % 7 + 1)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                .joined()
            guard let base = URL(string: text) else { continue }
            checked += 1
            let built = FalconWebviewURLBuilder.build(
                baseURL: base, apiKey: "K", placementId: "p", sessionId: "s", userAttributes: [], isSandbox: false,
                style: nil)
            switch (Self.previousWebviewBase(base.absoluteString), built) {
            case (nil, .failure(let failure)):
                #expect(failure == .invalidBaseURL)
            case (let expected?, .success(let url)):
                #expect(url.absoluteString == expected + "?placement=p&apiKey=K&sessionId=s")
            case (let expected, let result):
                Issue.record("\(base.absoluteString): expected \(expected ?? "nil"), built \(result)")
            }
        }
        #expect(checked > 1_000)
    }
}
