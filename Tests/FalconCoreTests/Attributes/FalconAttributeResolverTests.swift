@_spi(Tooling) import FalconCore
import Testing

@Suite("Attribute resolution and placement mapping (spec §c)")
struct FalconAttributeResolverTests {
    static let layout = "APP_NATIVE_ESSENTIAL_0.1"
    static let m1: [String: String] = [
        "APP_NATIVE_ESSENTIAL_0.1/ORDER_STATUS": "p-combo",
        "ORDER_STATUS": "p-view",
        "APP_NATIVE_ESSENTIAL_0.1": "p-layout",
    ]

    struct Example: Sendable, CustomTestStringConvertible {
        var number: Int
        var details: JSONValue?
        var mapping: [String: String]
        var placementId: String?
        var placement: String?
        var layoutId: String?
        var userDetails: JSONValue = ["email": "a@b.c"]

        var testDescription: String { "example \(number)" }
    }

    static let longView = String(repeating: "V", count: 300)

    static let examples: [Example] = {
        var m1MinusCombo = m1
        m1MinusCombo["APP_NATIVE_ESSENTIAL_0.1/ORDER_STATUS"] = nil
        let l = JSONValue.string(layout)
        return [
            Example(
                number: 1, details: ["layout_id": l, "view": "ORDER_STATUS"], mapping: m1,
                placementId: "p-combo", placement: "ORDER_STATUS", layoutId: layout),
            Example(
                number: 2, details: ["layout_id": l, "view": "ORDER_STATUS"], mapping: m1MinusCombo,
                placementId: "p-view", placement: "ORDER_STATUS", layoutId: layout),
            Example(
                number: 3, details: ["layout_id": l, "view": "ORDER_STATUS"], mapping: [layout: "p-layout"],
                placementId: "p-layout", placement: "ORDER_STATUS", layoutId: layout),
            Example(
                number: 4, details: ["layout_id": l, "view": "ORDER_STATUS"], mapping: [:],
                placementId: "ORDER_STATUS", placement: "ORDER_STATUS", layoutId: layout),
            Example(
                number: 5, details: ["layout_id": l, "view": "THANK_YOU"], mapping: m1,
                placementId: "p-layout", placement: "THANK_YOU", layoutId: layout),
            Example(
                number: 6, details: ["layout_id": l], mapping: m1,
                placementId: "p-layout", placement: nil, layoutId: layout),
            Example(
                number: 7, details: ["layout_id": l], mapping: [:],
                placementId: nil, placement: nil, layoutId: layout),
            Example(
                number: 8, details: ["view": "ORDER_STATUS"], mapping: m1,
                placementId: "p-view", placement: "ORDER_STATUS", layoutId: nil),
            Example(number: 9, details: nil, mapping: m1, placementId: nil, placement: nil, layoutId: nil),
            Example(number: 9, details: "ORDER_STATUS", mapping: m1, placementId: nil, placement: nil, layoutId: nil),
            Example(
                number: 10, details: ["layout_id": l, "view": ""], mapping: m1,
                placementId: "p-layout", placement: nil, layoutId: layout),
            Example(
                number: 10, details: ["layout_id": l, "view": "   "], mapping: m1,
                placementId: "p-layout", placement: nil, layoutId: layout),
            Example(
                number: 11, details: ["layout_id": l, "view": " ORDER_STATUS\n"], mapping: m1,
                placementId: "p-combo", placement: "ORDER_STATUS", layoutId: layout),
            Example(
                number: 12, details: ["layout_id": l, "view": 42], mapping: ["42": "x", layout: "p-layout"],
                placementId: "p-layout", placement: nil, layoutId: layout),
            Example(
                number: 13, details: ["layout_id": l, "view": "ORDER_STATUS"], mapping: ["ORDER_STATUS": ""],
                placementId: "ORDER_STATUS", placement: "ORDER_STATUS", layoutId: layout),
            Example(
                number: 14, details: ["layout_id": l, "view": "order_status"], mapping: m1,
                placementId: "p-layout", placement: "order_status", layoutId: layout),
            Example(
                number: 15, details: ["layout_id": "A/B", "view": "C"], mapping: ["A/B/C": "p"],
                placementId: "p", placement: "C", layoutId: "A/B"),
            Example(
                number: 15, details: ["layout_id": "A", "view": "B/C"], mapping: ["A/B/C": "p"],
                placementId: "p", placement: "B/C", layoutId: "A"),
            Example(
                number: 16, details: ["layout_id": l, "view": .string(longView)], mapping: [:],
                placementId: longView, placement: String(repeating: "V", count: 128), layoutId: layout),
            Example(
                number: 17, details: ["layout_id": l, "view": "ORDER_STATUS"], mapping: m1,
                placementId: "p-combo", placement: "ORDER_STATUS", layoutId: layout, userDetails: "x"),
            Example(
                number: 18, details: ["layout_id": " ", "view": "V"], mapping: ["/V": "p"],
                placementId: "V", placement: "V", layoutId: nil),
        ]
    }()

    @Test("worked examples", arguments: examples)
    func workedExample(_ example: Example) {
        var attributes: [String: JSONValue] = ["user_details": example.userDetails]
        if let details = example.details { attributes["placement_details"] = details }
        let resolved = FalconAttributeResolver.resolve(.object(attributes), mapping: example.mapping)
        #expect(resolved.placementId == example.placementId)
        #expect(resolved.diagnosticPlacement == example.placement)
        #expect(resolved.diagnosticLayoutId == example.layoutId)
    }

    @Test func emptyAttributesDoNotResolve() {
        #expect(FalconAttributeResolver.resolve([:], mapping: Self.m1).placementId == nil)
        #expect(FalconAttributeResolver.resolve("not a dictionary", mapping: Self.m1).placementId == nil)
    }

    @Test func nonStringLayoutIdIsAbsentAndNeverStringified() {
        let resolved = FalconAttributeResolver.resolve(
            ["placement_details": ["layout_id": true, "view": "V"]],
            mapping: ["true": "wrong", "1": "wrong"]
        )
        #expect(resolved.layoutId == nil)
        #expect(resolved.placementId == "V")
    }

    @Test func userDetailsBecomeOrderedAttributesWithCanonicalScalars() {
        let resolved = FalconAttributeResolver.resolve(
            [
                "user_details": [
                    "zip": " 10115 ", "last_name": "Smith", "email": "a+b@example.com", "first_name": "Jane",
                    "firstname": "Literal", "age": 42, "score": 2.5, "whole": 2.0, "vip": true, "opt_out": false,
                    "empty": "  ", "nothing": nil, "list": [1, 2], "nested": ["a": "b"],
                ],
                "placement_details": ["view": "V"],
            ],
            mapping: [:]
        )
        let pairs = resolved.userAttributes.map { "\($0.name)=\($0.value)" }
        #expect(
            pairs == [
                "at.email=a+b@example.com", "at.firstname=Jane", "at.lastname=Smith", "at.age=42",
                "at.opt_out=false", "at.score=2.5", "at.vip=true", "at.whole=2", "at.zip=10115",
            ]
        )
        #expect(resolved.droppedUserValueCount == 4)
    }

    @Test func anyDictionaryKeepsBooleansApartFromNumbers() {
        let input: [String: Any] = [
            "user_details": ["flag": true, "count": 1, "ratio": 0.5] as [String: Any],
            "placement_details": ["view": "V", "layout_id": 7] as [String: Any],
        ]
        let resolved = FalconAttributeResolver.resolve(JSONValue.convert(input).value, mapping: [:])
        #expect(resolved.userAttributes.map(\.value) == ["1", "true", "0.5"])
        #expect(resolved.layoutId == nil)
    }
}
