/// Percent-encoding over the RFC 3986 unreserved set (`A–Z a–z 0–9 - . _ ~`), UTF-8.
///
/// Every other byte becomes `%XX` with upper-case hex digits, so a space is `%20`, `+` is `%2B` and `@` is
/// `%40`. `URLQueryItem` is not used because it leaves `+` literal, which servers decode as a space.
///
/// ```swift
/// FalconPercentEncoder.encode("a+b@example.com")  // "a%2Bb%40example.com"
/// ```
///
/// - Complexity: O(n) in the UTF-8 length.
public enum FalconPercentEncoder: Sendable {
    /// Encodes `text`.
    public static func encode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `byte` is in the RFC 3986 unreserved set.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
