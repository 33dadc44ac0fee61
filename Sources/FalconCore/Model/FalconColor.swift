/// A portable RGBA colour (8 bits per channel) for ``FalconStyle``; stands in for `UIColor`.
///
/// ```swift
/// let green = FalconColor(red: 0, green: 0.514, blue: 0.388, alpha: 1)  // sent as style.…=#008363FF
/// ```
public struct FalconColor: Sendable, Hashable {
    /// Red channel, 0...255.
    package var red: UInt8
    /// Green channel, 0...255.
    package var green: UInt8
    /// Blue channel, 0...255.
    package var blue: UInt8
    /// Alpha channel, 0...255 (255 is opaque).
    package var alpha: UInt8

    /// Creates a colour from 8-bit channels.
    package init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Creates a colour from components in `0...1` like `UIColor(red:green:blue:alpha:)`.
    ///
    /// Components outside the range are clamped; NaN counts as 0.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.init(
            red: Self.channel(red),
            green: Self.channel(green),
            blue: Self.channel(blue),
            alpha: Self.channel(alpha)
        )
    }

    /// Fully transparent.
    public static let clear = FalconColor(red: 0 as UInt8, green: 0, blue: 0, alpha: 0)
    /// Opaque white.
    public static let white = FalconColor(red: 255 as UInt8, green: 255, blue: 255, alpha: 255)
    /// Opaque black.
    public static let black = FalconColor(red: 0 as UInt8, green: 0, blue: 0, alpha: 255)

    /// The colour as `#RRGGBBAA` with upper-case hex digits, as sent in the webview URL.
    package var hexString: String {
        let digits = Array("0123456789ABCDEF")
        var text = "#"
        for channel in [red, green, blue, alpha] {
            text.append(digits[Int(channel >> 4)])
            text.append(digits[Int(channel & 0x0F)])
        }
        return text
    }

    private static func channel(_ component: Double) -> UInt8 {
        guard component.isFinite, component > 0 else { return 0 }
        if component >= 1 { return 255 }
        return UInt8((component * 255).rounded())
    }
}
