/// The spelling of a `user_details` double with few decimals (`49.99`, `0.5`), without the general
/// shortest-round-trip algorithm.
///
/// `Double.description` finds the shortest digit string that reads back as the same value; for a value that is
/// a decimal with at most six fractional digits and a magnitude in [0.001, 10⁹), that string is the decimal
/// itself, in plain notation. This finds it directly: for each count of fractional digits, scale by the power
/// of ten, round to an integer and check that dividing back gives exactly the value (the division is correctly
/// rounded, so the check is the round trip). The first count that passes is the shortest. A differential test
/// compares it with `JSONWriter.appendNumber` on random doubles.
enum FalconShortDecimal {
    /// The most fractional digits tried: `10⁹ × 10⁶` stays below 2⁵³, so every scaled value is an exact integer.
    static let maximumFractionDigits = 6

    /// The plain decimal spelling of `value`, or `nil` when `value` is an integer, outside [0.001, 10⁹) in
    /// magnitude, not finite, or needs more than ``maximumFractionDigits`` fractional digits.
    static func text(_ value: Double) -> String? {
        let magnitude = value.magnitude
        guard magnitude >= 0.001, magnitude < 1e9, magnitude != magnitude.rounded(.towardZero) else { return nil }
        var scale: Double = 1
        var power = 1
        for digits in 1...maximumFractionDigits {
            scale *= 10
            power *= 10
            let scaled = (magnitude * scale).rounded()
            guard scaled / scale == magnitude else { continue }
            return spell(Int(scaled), fractionDigits: digits, power: power, negative: value < 0)
        }
        return nil
    }

    /// `[-]whole.fraction` of `scaled / power`, the fraction padded to `fractionDigits` digits.
    private static func spell(_ scaled: Int, fractionDigits: Int, power: Int, negative: Bool) -> String {
        let whole = scaled / power
        var wholeDigits = 1
        var rest = whole / 10
        while rest > 0 {
            wholeDigits += 1
            rest /= 10
        }
        let count = (negative ? 1 : 0) + wholeDigits + 1 + fractionDigits
        return String(unsafeUninitializedCapacity: count) { buffer in
            // Written from the end: the fraction's digits, the point, then the whole part's.
            var index = count
            var fraction = scaled % power
            for _ in 0..<fractionDigits {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(fraction % 10)
                fraction /= 10
            }
            index -= 1
            buffer[index] = UInt8(ascii: ".")
            var remaining = whole
            for _ in 0..<wholeDigits {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            }
            if negative { buffer[0] = UInt8(ascii: "-") }
            return count
        }
    }
}
