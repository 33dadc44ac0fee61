/// How the placement id was found: every mapping key the lookup tried, in order, and why each one before the
/// match did not apply.
///
/// Produced by `FalconAttributeResolver.explain(view:layoutId:mapping:)` for support tools (such as
/// `sdkcore falcon resolve`); the SDK itself only needs the resulting id.
///
/// ```swift
/// let lookup = FalconAttributeResolver.explain(view: "ORDER_STATUS", layoutId: "L", mapping: ["ORDER_STATUS": "p-1"])
/// lookup.placementId   // "p-1"
/// lookup.matchedStep   // .view
/// lookup.attempts[0]   // step .layoutAndView, key "L/ORDER_STATUS", outcome .noMappingEntry
/// ```
package struct FalconPlacementLookup: Sendable, Hashable {
    /// The four lookup steps of spec §c, in order.
    package enum Step: String, Sendable, Hashable, CaseIterable {
        /// The mapping key `"<layout_id>/<view>"`.
        case layoutAndView
        /// The mapping key `"<view>"`.
        case view
        /// The mapping key `"<layout_id>"`.
        case layout
        /// No mapping entry applied: the raw `view` is the placement id.
        case rawView
    }

    /// What happened at one step.
    package enum Outcome: Sendable, Hashable {
        /// The identifier this step needs (`view`, `layout_id` or both) is absent or blank.
        case absentIdentifier
        /// The mapping has no entry for the key.
        case noMappingEntry
        /// The mapping entry for the key is empty after trimming (counts as no entry).
        case emptyMappingValue
        /// The step produced the placement id.
        case matched(String)
    }

    /// One step of the lookup.
    package struct Attempt: Sendable, Hashable {
        /// Which step.
        package var step: Step
        /// The mapping key tried, or `nil` when the step needs an absent identifier (and for ``Step/rawView``).
        package var key: String?
        /// What happened.
        package var outcome: Outcome

        /// Creates an attempt.
        package init(step: Step, key: String?, outcome: Outcome) {
            self.step = step
            self.key = key
            self.outcome = outcome
        }
    }

    /// The steps tried, in order; the last one is the match when there is one.
    package var attempts: [Attempt]

    /// Creates a lookup trace.
    package init(attempts: [Attempt]) {
        self.attempts = attempts
    }

    /// The resolved placement id, or `nil` when no step matched (the diagnostic would be
    /// ``FalconDiagnosticCode/attributeMappingFailed``).
    package var placementId: String? {
        guard case .matched(let id)? = attempts.last?.outcome else { return nil }
        return id
    }

    /// The step that produced the placement id, or `nil` when none did.
    package var matchedStep: Step? {
        guard let last = attempts.last, case .matched = last.outcome else { return nil }
        return last.step
    }
}
