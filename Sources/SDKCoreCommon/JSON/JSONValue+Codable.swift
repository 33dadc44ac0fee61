extension JSONValue: Codable {
    /// Decodes any JSON value. Integral numbers that fit an `Int` become ``int(_:)``.
    ///
    /// Arrays are tried first, then objects, then the scalars, so that a chain of nested arrays never costs a
    /// failed attempt per level (`JSONDecoder` builds an error with the whole coding path for each one).
    /// Nesting deeper than ``JSONParsingLimits/defaultMaximumDepth`` levels is refused with
    /// `DecodingError.dataCorrupted`, which bounds the cost of each failed attempt. For text from an untrusted
    /// source, prefer ``init(parsing:limits:)-(String,_)``: it is linear in the input and faster.
    public init(from decoder: any Decoder) throws {
        // The depth is counted here, not read from `decoder.codingPath`, which costs O(depth) per value.
        let depth = DecodingDepth.current
        if var array = try? decoder.unkeyedContainer() {
            try Self.checkDepth(depth, decoder)
            var elements: [JSONValue] = []
            if let count = array.count { elements.reserveCapacity(count) }
            try DecodingDepth.$current.withValue(depth + 1) {
                while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: MemberKey.self) {
            try Self.checkDepth(depth, decoder)
            var members: [String: JSONValue] = [:]
            let keys = object.allKeys
            members.reserveCapacity(keys.count)
            try DecodingDepth.$current.withValue(depth + 1) {
                for key in keys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            }
            self = .object(members)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else {
            self = .bool(try container.decode(Bool.self))
        }
    }

    /// Encodes this value; non-finite doubles are encoded as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value):
            if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    fileprivate static func checkDepth(_ depth: Int, _ decoder: any Decoder) throws {
        guard depth < JSONParsingLimits.defaultMaximumDepth else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "nesting deeper than \(JSONParsingLimits.defaultMaximumDepth) levels"))
        }
    }
}

/// How many arrays and objects enclose the `JSONValue` being decoded on this task or thread.
private enum DecodingDepth {
    @TaskLocal static var current = 0
}

/// Any member name of a JSON object.
private struct MemberKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }

    init?(intValue: Int) { nil }
}
