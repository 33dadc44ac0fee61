import SDKCoreCommon
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite struct JSONParserTests {
    @Test(arguments: [
        #"{"a":[1,2.5,null,true,false,"x"],"b":{}}"#, "[]", "{}", "0", "-0", "1.0", "1e2", "-12", "1.5", "1E-2",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "123456789012345678901234",
        #""\u00e9\ud83d\ude00\/\b\f\n\r\t\"\\""#, "\"é😀\"", " \n\t[ 1 , 2 ]\r\n", "null", "true", "\"\"",
    ])
    func agreesWithJSONDecoder(text: String) throws {
        let parsed = try JSONValue(parsing: text)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(parsed == decoded)
    }

    @Test(arguments: [
        "", " ", "[1,]", "{\"a\":1,}", "01", "1.", "-", "+1", ".5", "1e", "nul", "tru", "[1 2]", "{\"a\" 1}",
        "{a:1}", "\"a", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "1 2", "[",
        "1E400", "-1e999", "\"\u{01}\"", "/* */1", "NaN", "[1]]",
    ])
    func rejectsWhatIsNotStrictJSON(text: String) {
        #expect(throws: JSONParsingError.self) { try JSONValue(parsing: text) }
    }

    @Test func rejectsInvalidUTF8() {
        for bytes: [UInt8] in [
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82],
        ] {
            #expect(throws: JSONParsingError.self) { try JSONValue(parsing: Data(bytes)) }
        }
    }

    @Test func keepsTheLastValueOfARepeatedMemberName() throws {
        #expect(try JSONValue(parsing: #"{"a":1,"a":2}"#) == ["a": 2])
    }

    @Test func enforcesTheDepthLimit() throws {
        let limit = JSONParsingLimits.defaultMaximumDepth
        let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(try JSONValue(parsing: atLimit).arrayValue != nil)
        let over = "[" + atLimit + "]"
        let error = #expect(throws: JSONParsingError.self) { try JSONValue(parsing: over) }
        #expect(error?.reason == .tooDeep)
        #expect(error?.offset == limit)
        let objects = String(repeating: #"{"a":"#, count: limit + 1) + "1" + String(repeating: "}", count: limit + 1)
        #expect(throws: JSONParsingError.self) { try JSONValue(parsing: objects) }
    }

    @Test func enforcesTheSizeLimitBeforeReading() throws {
        let text = "[" + String(repeating: " ", count: JSONParsingLimits.defaultMaximumBytes) + "]"
        let error = #expect(throws: JSONParsingError.self) { try JSONValue(parsing: text) }
        #expect(error?.reason == .tooLarge)
        let small = JSONParsingLimits(maximumBytes: 4, maximumDepth: 1)
        #expect(try JSONValue(parsing: "[12]", limits: small) == [12])
        #expect(throws: JSONParsingError.self) { try JSONValue(parsing: "[123]", limits: small) }
        #expect(throws: JSONParsingError.self) { try JSONValue(parsing: "[[]]", limits: small) }
    }

    @Test func errorsNeverCarryTheText() {
        let error = #expect(throws: JSONParsingError.self) { try JSONValue(parsing: #"{"secret": tru}"#) }
        #expect(error?.description.contains("secret") == false)
    }

    /// Deep nesting is bounded and arrays are tried first, so the nesting the decoder accepts costs no failed scalar
    /// attempt (each would build an error with the whole coding path: 500 levels of them take seconds).
    @Test func decodableRefusesNestingBeyondTheLimit() throws {
        let limit = JSONParsingLimits.defaultMaximumDepth
        let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(atLimit.utf8)).arrayValue != nil)
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(JSONValue.self, from: Data(deep.utf8)) }
    }

    @Test func decodableStillDecodesEveryKind() throws {
        let text = #"{"a":[1,2.5,null,true,false,"x",{"b":[]}],"c":-3}"#
        #expect(
            try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
                == ["a": [1, 2.5, nil, true, false, "x", ["b": []]], "c": -3])
    }
}
