/// A JSON value that crosses the public API: attributes, properties and traits.
///
/// `JSONValue` is `Sendable`, `Hashable` and expressible by literals, so the dictionaries written in the
/// iOS integration guides compile unchanged:
///
/// ```swift
/// let attributes: JSONValue = [
///     "user_details": ["email": "user@example.com", "first_name": "Jane"],
///     "placement_details": ["layout_id": "APP_NATIVE_ESSENTIAL_0.1", "view": "ORDER_STATUS"],
/// ]
/// ```
///
/// Integers and floating-point numbers are kept apart so that `42` is written as `42`, never `42.0`.
/// Hosts holding `[String: Any]` convert with ``JSONValue/convert(_:)``, which drops and reports what JSON
/// cannot carry.
public enum JSONValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// A JSON boolean.
    case bool(Bool)
    /// A JSON number without a fractional part.
    case int(Int)
    /// A JSON number with a fractional part. Never NaN or infinite when built by the converter.
    case double(Double)
    /// A JSON string.
    case string(String)
    /// A JSON array.
    case array([JSONValue])
    /// A JSON object. Key order is not significant; writers emit keys sorted.
    case object([String: JSONValue])
}

extension JSONValue {
    /// The string, when this value is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The object's members, when this value is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, when this value is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The boolean, when this value is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as a `Double`, when this value is a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// Whether this value is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member named `key`, when this value is an object that has it.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue: ExpressibleByNilLiteral {
    /// Creates `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates a boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates an integer number.
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Creates a floating-point number.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Creates a string.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates an array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates an object. A key given twice keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        // Sized at creation: `reserveCapacity` on an empty dictionary ran the standard library's unspecialised
        // code, which looked up the storage's generic metadata on every call (a `track()` literal is built per event).
        var object = [String: JSONValue](minimumCapacity: elements.count)
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of this value, keys sorted.
    public var description: String { jsonString() }
}
