/// Visual overrides for one placement; every `nil` field keeps the server default.
///
/// ```swift
/// let style = FalconStyle(widgetBackgroundColor: .clear, slotBackgroundColor: .white, fontFamily: "Roboto")
/// ```
public struct FalconStyle: Sendable, Hashable {
    /// Background of the whole widget (server default: clear).
    public var widgetBackgroundColor: FalconColor?
    /// Background of each offer slot (server default: white).
    public var slotBackgroundColor: FalconColor?
    /// Padding of each slot in CSS pixels, sent verbatim.
    public var slotPadding: Int?
    /// Background of the accept button (server default: `#008363`).
    public var acceptButtonBackgroundColor: FalconColor?
    /// Text colour of the accept button (server default: white).
    public var acceptButtonTextColor: FalconColor?
    /// Background of the promo code (server default: `#2DA784`).
    public var promoCodeBackgroundColor: FalconColor?
    /// Font family name, sent verbatim (server default: Roboto).
    public var fontFamily: String?

    /// Creates a style; omitted fields keep the server default.
    public init(
        widgetBackgroundColor: FalconColor? = nil,
        slotBackgroundColor: FalconColor? = nil,
        slotPadding: Int? = nil,
        acceptButtonBackgroundColor: FalconColor? = nil,
        acceptButtonTextColor: FalconColor? = nil,
        promoCodeBackgroundColor: FalconColor? = nil,
        fontFamily: String? = nil
    ) {
        self.widgetBackgroundColor = widgetBackgroundColor
        self.slotBackgroundColor = slotBackgroundColor
        self.slotPadding = slotPadding
        self.acceptButtonBackgroundColor = acceptButtonBackgroundColor
        self.acceptButtonTextColor = acceptButtonTextColor
        self.promoCodeBackgroundColor = promoCodeBackgroundColor
        self.fontFamily = fontFamily
    }

    /// The style as ordered `(name, value)` query parameters `style.<field>`, colours as `#RRGGBBAA`.
    var queryParameters: [(String, String)] {
        var parameters: [(String, String)] = []
        // Whole names as literals: no interpolation per execute.
        func add(_ name: String, _ value: String?) {
            if let value { parameters.append((name, value)) }
        }
        add("style.widgetBackgroundColor", widgetBackgroundColor?.hexString)
        add("style.slotBackgroundColor", slotBackgroundColor?.hexString)
        add("style.slotPadding", slotPadding.map { String($0) })
        add("style.acceptButtonBackgroundColor", acceptButtonBackgroundColor?.hexString)
        add("style.acceptButtonTextColor", acceptButtonTextColor?.hexString)
        add("style.promoCodeBackgroundColor", promoCodeBackgroundColor?.hexString)
        add("style.fontFamily", fontFamily)
        return parameters
    }
}
