@_spi(Tooling) import FalconCore
import Testing

@Suite("FalconAttributeResolver.explain")
struct FalconPlacementLookupTests {
    @Test func combinedKeyMatchesFirst() {
        let lookup = FalconAttributeResolver.explain(
            view: "V", layoutId: "L", mapping: ["L/V": "p-combo", "V": "p-view"])
        #expect(lookup.attempts == [.init(step: .layoutAndView, key: "L/V", outcome: .matched("p-combo"))])
        #expect(lookup.matchedStep == .layoutAndView)
        #expect(lookup.placementId == "p-combo")
    }

    @Test func explainsEveryEarlierStep() {
        let lookup = FalconAttributeResolver.explain(view: "V", layoutId: "L", mapping: ["V": "  ", "L": " p-layout "])
        #expect(
            lookup.attempts == [
                .init(step: .layoutAndView, key: "L/V", outcome: .noMappingEntry),
                .init(step: .view, key: "V", outcome: .emptyMappingValue),
                .init(step: .layout, key: "L", outcome: .matched("p-layout")),
            ])
    }

    @Test func fallsBackToTheRawView() {
        let lookup = FalconAttributeResolver.explain(view: "V", layoutId: nil, mapping: [:])
        #expect(
            lookup.attempts == [
                .init(step: .layoutAndView, key: nil, outcome: .absentIdentifier),
                .init(step: .view, key: "V", outcome: .noMappingEntry),
                .init(step: .layout, key: nil, outcome: .absentIdentifier),
                .init(step: .rawView, key: nil, outcome: .matched("V")),
            ])
        #expect(lookup.matchedStep == .rawView)
    }

    @Test func failsWithoutIdentifiers() {
        let lookup = FalconAttributeResolver.explain(view: nil, layoutId: "L", mapping: ["X": "p"])
        #expect(lookup.placementId == nil)
        #expect(lookup.matchedStep == nil)
        #expect(lookup.attempts.last == .init(step: .rawView, key: nil, outcome: .absentIdentifier))
        #expect(FalconAttributeResolver.placementId(view: nil, layoutId: "L", mapping: ["X": "p"]) == nil)
    }
}
