#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The six fields of a diagnostic beacon, and nothing else, ever.
///
/// `placement` and `layoutId` are the capped `view` and `layout_id` (JSON `null` when absent); `ts` is Unix
/// epoch milliseconds (UTC).
package struct FalconBeacon: Sendable, Hashable {
    /// The SDK version, ``Falcon/version``.
    package var sdkv: String
    /// The diagnostic code's raw value.
    package var code: FalconDiagnosticCode
    /// `placement_details.view`, trimmed and capped at 128 characters (and 8 KiB of UTF-8).
    package var placement: String?
    /// `placement_details.layout_id`, trimmed and capped at 128 characters (and 8 KiB of UTF-8).
    package var layoutId: String?
    /// The platform name (`iOS`, `macOS`, `linux`, …).
    package var platform: String
    /// Unix epoch milliseconds.
    package var ts: Int64

    /// Creates a beacon; `placement` and `layoutId` are capped at 128 characters (and 8 KiB of UTF-8) here as
    /// well.
    package init(
        sdkv: String, code: FalconDiagnosticCode, placement: String?, layoutId: String?, platform: String, ts: Int64
    ) {
        self.sdkv = sdkv
        self.code = code
        self.placement = FalconIdentifier.capped(placement)
        self.layoutId = FalconIdentifier.capped(layoutId)
        self.platform = platform
        self.ts = ts
    }

    /// Milliseconds since 1970 for `date`, rounded down.
    package static func milliseconds(since1970 date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard value.isFinite, abs(value) < 9.2e18 else { return 0 }
        return Int64(value)
    }

    /// The JSON body: keys sorted, compact, escaped exactly as `JSONEncoder` with `.sortedKeys` escapes them
    /// (including `\/`), so the output is byte-for-byte identical to that encoder's.
    ///
    /// - Complexity: O(n) in the length of the fields.
    package func jsonBody() -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160)
        bytes.append(UInt8(ascii: "{"))
        Self.member("code", code.rawValue, first: true, to: &bytes)
        Self.member("layoutId", layoutId, to: &bytes)
        Self.member("placement", placement, to: &bytes)
        Self.member("platform", platform, to: &bytes)
        Self.member("sdkv", sdkv, to: &bytes)
        bytes.append(contentsOf: ",\"ts\":".utf8)
        bytes.append(contentsOf: String(ts).utf8)
        bytes.append(UInt8(ascii: "}"))
        return Data(bytes)
    }

    private static func member(_ key: String, _ value: String?, first: Bool = false, to bytes: inout [UInt8]) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: key.utf8)
        bytes.append(contentsOf: "\":".utf8)
        guard let value else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        appendString(value, to: &bytes)
    }

    /// A JSON string literal with `JSONEncoder`'s escapes: `\" \\ \/ \b \f \n \r \t` and `\u00xx`.
    static func appendString(_ value: String, to bytes: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "/"): bytes.append(contentsOf: "\\/".utf8)
            case 0x08: bytes.append(contentsOf: "\\b".utf8)
            case 0x0C: bytes.append(contentsOf: "\\f".utf8)
            case 0x0A: bytes.append(contentsOf: "\\n".utf8)
            case 0x0D: bytes.append(contentsOf: "\\r".utf8)
            case 0x09: bytes.append(contentsOf: "\\t".utf8)
            case 0x00..<0x20:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// The platform name sent in beacons.
@usableFromInline package enum FalconPlatform: Sendable {
    /// `iOS`, `macOS`, `tvOS`, `watchOS`, `visionOS`, `linux`, `windows`, `android`, or `unknown`.
    @usableFromInline package static var current: String {
        #if os(iOS)
        "iOS"
        #elseif os(macOS)
        "macOS"
        #elseif os(tvOS)
        "tvOS"
        #elseif os(watchOS)
        "watchOS"
        #elseif os(visionOS)
        "visionOS"
        #elseif os(Android)
        "android"
        #elseif os(Linux)
        "linux"
        #elseif os(Windows)
        "windows"
        #else
        "unknown"
        #endif
    }
}
