/// An ordered list of HTTP header fields whose names compare without regard to ASCII case.
///
/// Fields keep the order and the spelling they arrived with, so a test can check exactly what a client sent,
/// while lookups by name ignore case as HTTP requires.
///
/// ```swift
/// let headers: LoopbackHTTPHeaders = ["Content-Type": "application/json"]
/// headers["content-type"]  // "application/json"
/// ```
public struct LoopbackHTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field: a name and its value, both as they appeared on the wire.
    public struct Field: Sendable, Hashable {
        /// The field name, spelled as sent.
        public var name: String
        /// The field value with surrounding whitespace removed.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order they arrived (or were added).
    public private(set) var fields: [Field]

    /// Creates an empty header list.
    public init() {
        fields = []
    }

    /// Creates a header list from name–value pairs, keeping their order.
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// Creates a header list from a dictionary literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields, counting repeated names separately.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The value of the field `name`, ignoring case; repeated fields are combined with `", "` as RFC 9110
    /// allows. `nil` when the field is absent.
    public subscript(name: String) -> String? {
        let found = values(for: name)
        return found.isEmpty ? nil : found.joined(separator: ", ")
    }

    /// Every value of the field `name`, ignoring case, in arrival order.
    public func values(for name: String) -> [String] {
        fields.compactMap { asciiCaseInsensitiveEquals($0.name, name) ? $0.value : nil }
    }

    /// Whether a field called `name` is present, ignoring case.
    public func contains(_ name: String) -> Bool {
        fields.contains { asciiCaseInsensitiveEquals($0.name, name) }
    }

    /// Appends a field, keeping any existing field of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field called `name` (ignoring case) with one field holding `value`.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name)
        add(name: name, value: value)
    }

    /// Removes every field called `name`, ignoring case.
    public mutating func remove(_ name: String) {
        fields.removeAll { asciiCaseInsensitiveEquals($0.name, name) }
    }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}

/// Compares two strings byte by byte, folding only ASCII letters (header names are ASCII tokens).
func asciiCaseInsensitiveEquals(_ lhs: String, _ rhs: String) -> Bool {
    var left = lhs.utf8.makeIterator()
    var right = rhs.utf8.makeIterator()
    while true {
        switch (left.next(), right.next()) {
        case (nil, nil):
            return true
        case (let a?, let b?):
            if asciiLowercased(a) != asciiLowercased(b) { return false }
        default:
            return false
        }
    }
}

/// The ASCII lower-case form of one byte; other bytes are returned unchanged.
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    (byte >= 0x41 && byte <= 0x5A) ? byte + 0x20 : byte
}
