#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Something the `[String: Any]` converter could not carry into JSON, with where it was.
///
/// The report names the place (`user_details.birthday`) and the kind of problem, never the value, so it is
/// safe to log.
public struct JSONConversionIssue: Sendable, Hashable, CustomStringConvertible {
    /// Why a value was changed or dropped.
    public enum Reason: String, Sendable, Hashable {
        /// A floating-point value that was NaN or infinite; it was written as `null`.
        case nonFiniteNumber
        /// A value of a type JSON cannot carry (an arbitrary object); it was dropped.
        case unsupportedType
        /// A dictionary key that was not a string; the member was dropped.
        case nonStringKey
        /// A `Date` that was NaN, infinite or outside years 0000 to 9999; it was dropped (`null` in an array).
        case unrepresentableDate
        /// A value nested deeper than ``JSONValue/maximumConversionDepth`` levels; it was dropped.
        case nestingTooDeep
    }

    /// The path of the value, dot-separated for object members and `[i]` for array elements.
    public var path: String
    /// What happened to the value.
    public var reason: Reason
    /// The Swift type name of the offending value (never the value itself).
    public var typeName: String

    /// Creates an issue.
    public init(path: String, reason: Reason, typeName: String) {
        self.path = path
        self.reason = reason
        self.typeName = typeName
    }

    /// A one-line, value-free description such as `user_details.age: nonFiniteNumber (Double)`.
    public var description: String { "\(path.isEmpty ? "<root>" : path): \(reason.rawValue) (\(typeName))" }
}

/// The outcome of converting loosely typed values: the JSON that could be built and what was lost.
public struct JSONConversion: Sendable, Hashable {
    /// The converted value.
    public var value: JSONValue
    /// Every value that was changed or dropped on the way, in traversal order.
    public var issues: [JSONConversionIssue]

    /// Creates a conversion result.
    public init(value: JSONValue, issues: [JSONConversionIssue]) {
        self.value = value
        self.issues = issues
    }
}

extension JSONValue {
    /// Converts a `[String: Any]` dictionary, as the iOS SDKs accept it, into a JSON object.
    ///
    /// Strings, booleans, integers, floating-point numbers, `Decimal`, arrays and nested dictionaries
    /// (with `String` or `AnyHashable` string keys) carry over. `Date` becomes an ISO-8601 string with
    /// milliseconds in UTC, `URL` its absolute string, `UUID` its string. `nil` becomes `null`. NaN and
    /// infinities become `null` and are reported; a `Date` that cannot be shown (NaN, infinite, outside years
    /// 0000 to 9999), values nested deeper than ``maximumConversionDepth`` and any other type are dropped and
    /// reported.
    ///
    /// ```swift
    /// let result = JSONValue.convert(["price": 49.99, "at": Date(timeIntervalSince1970: 0)])
    /// // result.value == ["price": 49.99, "at": "1970-01-01T00:00:00.000Z"], result.issues == []
    /// ```
    ///
    /// - Complexity: O(n) in the number of values.
    public static func convert(_ dictionary: [String: Any]) -> JSONConversion {
        var issues: [JSONConversionIssue] = []
        var object: [String: JSONValue] = [:]
        object.reserveCapacity(dictionary.count)
        for (key, element) in dictionary {
            if let converted = convertElement(element, path: key, issues: &issues) {
                object[key] = converted
            }
        }
        return JSONConversion(value: .object(object), issues: issues)
    }

    /// Converts a single loosely typed value with the rules of ``convert(_:)``.
    ///
    /// A value that cannot be carried at all yields `null`, and an issue says why.
    public static func convert(any value: Any) -> JSONConversion {
        var issues: [JSONConversionIssue] = []
        let converted = convertElement(value, path: "", issues: &issues) ?? .null
        return JSONConversion(value: converted, issues: issues)
    }

    /// Arrays and dictionaries nested deeper than this are dropped and reported by the converter: 64 levels,
    /// ``JSONParsingLimits/defaultMaximumDepth``.
    public static let maximumConversionDepth = JSONParsingLimits.defaultMaximumDepth

    private static func convertElement(
        _ value: Any, path: String, depth: Int = 0, issues: inout [JSONConversionIssue]
    ) -> JSONValue? {
        switch value {
        case let json as JSONValue:
            return json
        case let string as String:
            return .string(string)
        case let substring as Substring:
            return .string(String(substring))
        case let character as Character:
            return .string(String(character))
        default:
            break
        }
        #if canImport(Darwin)
        if let number = value as? NSNumber, type(of: value) != Bool.self {
            return convertNumber(number, path: path, issues: &issues)
        }
        #endif
        switch value {
        case let bool as Bool:
            return .bool(bool)
        case let int as Int:
            return .int(int)
        case let int as Int8:
            return .int(Int(int))
        case let int as Int16:
            return .int(Int(int))
        case let int as Int32:
            return .int(Int(int))
        case let int as Int64:
            return .int(Int(int))
        case let uint as UInt:
            return uint <= UInt(Int.max) ? .int(Int(uint)) : .double(Double(uint))
        case let uint as UInt8:
            return .int(Int(uint))
        case let uint as UInt16:
            return .int(Int(uint))
        case let uint as UInt32:
            return .int(Int(uint))
        case let uint as UInt64:
            return uint <= UInt64(Int.max) ? .int(Int(uint)) : .double(Double(uint))
        case let double as Double:
            return finite(double, path: path, typeName: "Double", issues: &issues)
        case let float as Float:
            return finite(Double(float), path: path, typeName: "Float", issues: &issues)
        case let decimal as Decimal:
            return .double(NSDecimalNumberFree.double(from: decimal))
        case let date as Date:
            guard let text = ISO8601Timestamp.string(representing: date) else {
                issues.append(JSONConversionIssue(path: path, reason: .unrepresentableDate, typeName: "Date"))
                return nil
            }
            return .string(text)
        case let url as URL:
            return .string(url.absoluteString)
        case let uuid as UUID:
            return .string(uuid.uuidString)
        case is [String: Any], is [AnyHashable: Any], is [Any]:
            guard depth < maximumConversionDepth else {
                issues.append(
                    JSONConversionIssue(
                        path: path, reason: .nestingTooDeep, typeName: String(describing: type(of: value))))
                return nil
            }
            return convertContainer(value, path: path, depth: depth + 1, issues: &issues)
        default:
            if isNil(value) { return .null }
            issues.append(
                JSONConversionIssue(path: path, reason: .unsupportedType, typeName: String(describing: type(of: value)))
            )
            return nil
        }
    }

    private static func convertContainer(
        _ value: Any, path: String, depth: Int, issues: inout [JSONConversionIssue]
    ) -> JSONValue? {
        switch value {
        case let dictionary as [String: Any]:
            var object: [String: JSONValue] = [:]
            for (key, element) in dictionary {
                if let converted = convertElement(element, path: join(path, key), depth: depth, issues: &issues) {
                    object[key] = converted
                }
            }
            return .object(object)
        case let dictionary as [AnyHashable: Any]:
            var object: [String: JSONValue] = [:]
            for (key, element) in dictionary {
                guard let stringKey = key.base as? String else {
                    issues.append(
                        JSONConversionIssue(
                            path: join(path, "<key>"),
                            reason: .nonStringKey,
                            typeName: String(describing: type(of: key.base))
                        )
                    )
                    continue
                }
                if let converted = convertElement(element, path: join(path, stringKey), depth: depth, issues: &issues) {
                    object[stringKey] = converted
                }
            }
            return .object(object)
        case let array as [Any]:
            var elements: [JSONValue] = []
            elements.reserveCapacity(array.count)
            for (index, element) in array.enumerated() {
                // An element that cannot be carried becomes null so that positions are kept.
                elements.append(
                    convertElement(element, path: "\(path)[\(index)]", depth: depth, issues: &issues) ?? .null)
            }
            return .array(elements)
        default:
            return nil
        }
    }

    private static func finite(
        _ value: Double,
        path: String,
        typeName: String,
        issues: inout [JSONConversionIssue]
    ) -> JSONValue {
        guard value.isFinite else {
            issues.append(JSONConversionIssue(path: path, reason: .nonFiniteNumber, typeName: typeName))
            return .null
        }
        return .double(value)
    }

    #if canImport(Darwin)
    private static func convertNumber(
        _ number: NSNumber,
        path: String,
        issues: inout [JSONConversionIssue]
    ) -> JSONValue {
        // "c" is the Objective-C encoding of BOOL, which is how a boolean NSNumber presents itself.
        if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
        let double = number.doubleValue
        if double == double.rounded(), abs(double) < 9_007_199_254_740_992 { return .int(number.intValue) }
        return finite(double, path: path, typeName: "NSNumber", issues: &issues)
    }
    #endif

    private static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    private static func isNil(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }
}

/// `Decimal` to `Double` without `NSDecimalNumber`, which FoundationEssentials lacks.
private enum NSDecimalNumberFree: Sendable {
    static func double(from decimal: Decimal) -> Double {
        Double(decimal.description) ?? 0
    }
}
