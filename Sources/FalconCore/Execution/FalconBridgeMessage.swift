#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A message from the placement's web content, decoded from the bridge envelope
/// `{"type": "event", "name": …, "data": {…}}`.
///
/// The wire names of `loaded`, `height`, `noFill` and `error` are not public; this decoder is the single
/// place that maps them (spec §i Q2): `loaded {height?}`, `height` or `resize {height}`, `noFill` (also
/// `no_fill`), `close {closeType?}`, `error {code?}`, `click {clickUrl}`. Anything else is ``ignored``.
///
/// Not API: hosts report bridge messages through ``FalconExecutionReporter``. The type is SPI for the fuzz
/// targets and benchmarks (`@_spi(Tooling) import FalconCore`).
@_spi(Tooling) public enum FalconBridgeMessage: Sendable, Hashable {
    /// The content rendered; `height` is the content height in points when reported.
    case loaded(height: Double?)
    /// The content height changed.
    case height(Double)
    /// The placement has nothing to show.
    case noFill
    /// The web content closed the placement.
    case close
    /// The web content reported an error. Its text is never copied anywhere.
    case error
    /// The user tapped a link the content wants opened outside the web view.
    case click(URL)
    /// Malformed, unknown or not an event; ignored.
    case ignored

    /// Decodes a message as delivered on iOS (a dictionary or any JSON value).
    ///
    /// A message that arrives as a value gets the limits of text (`JSONParsingLimits.untrusted`): one whose
    /// compact JSON text would pass 64 KiB, or that nests deeper than 64 levels, is ``ignored``. The check
    /// stops as soon as the value passes a limit, so its cost does not grow with the size of the value.
    @_spi(Tooling) public static func decode(_ message: JSONValue) -> FalconBridgeMessage {
        (try? parse(message)) ?? .ignored
    }

    /// Decodes a message delivered as a value, or says why it was rejected (value-free).
    static func parse(_ message: JSONValue) throws(JSONParsingError) -> FalconBridgeMessage {
        if let error = message.exceedsLimits(.untrusted) { throw error }
        return decodeEnvelope(message)
    }

    /// Decodes a value within the limits: the envelope rules of the type's documentation.
    private static func decodeEnvelope(_ message: JSONValue) -> FalconBridgeMessage {
        guard case .object(let envelope) = message else { return .ignored }
        let (type, nameValue, data) = FalconObjectMembers.lookUp(envelope, "type", "name", "data")
        guard type?.stringValue == "event", let name = nameValue?.stringValue else { return .ignored }
        switch name {
        case "loaded":
            // An invalid height on `loaded` counts as "no height reported"; the load signal stands.
            return .loaded(height: height(data?["height"]))
        case "height", "resize":
            guard let value = height(data?["height"]) else { return .ignored }
            return .height(value)
        case "noFill", "no_fill":
            return .noFill
        case "close":
            return .close
        case "error":
            return .error
        case "click":
            guard let text = data?["clickUrl"]?.stringValue, let url = URL(string: text) else { return .ignored }
            return .click(url)
        default:
            return .ignored
        }
    }

    /// Decodes a message as delivered on Android (a JSON string). Invalid JSON, and text over the limits of
    /// untrusted input (`JSONParsingLimits.untrusted`: 64 KiB, 64 levels of nesting), is ``ignored``.
    ///
    /// - Complexity: O(n) in the length of `json`.
    @_spi(Tooling) public static func decode(json: String) -> FalconBridgeMessage {
        (try? parse(json: json)) ?? .ignored
    }

    /// Decodes a message delivered as JSON text, or says why the text was rejected (value-free).
    static func parse(json: String) throws(JSONParsingError) -> FalconBridgeMessage {
        // Text within the limits is not measured again: its value came from at most 64 KiB of text.
        decodeEnvelope(try JSONValue(parsing: json, limits: .untrusted))
    }

    /// Decodes a loosely typed message (`[String: Any]`, `NSDictionary`, or a JSON `String`), with the limits
    /// of ``decode(json:)`` for text and of ``decode(_:)`` for a dictionary.
    @_spi(Tooling) public static func decode(any message: Any) -> FalconBridgeMessage {
        if let text = message as? String { return decode(json: text) }
        return decode(JSONValue.convert(any: message).value)
    }

    /// A finite, non-negative height; anything else is `nil`.
    private static func height(_ value: JSONValue?) -> Double? {
        guard let number = value?.doubleValue, number.isFinite, number >= 0 else { return nil }
        return number
    }
}
