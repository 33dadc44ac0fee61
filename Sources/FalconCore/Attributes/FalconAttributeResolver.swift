/// The outcome of resolving an attributes dictionary: the placement id and the values the URL carries.
public struct FalconResolvedAttributes: Sendable, Hashable {
    /// The Falcon placement id after the mapping lookup, or `nil` when nothing resolved.
    public var placementId: String?
    /// `placement_details.view` after normalization (full length).
    public var view: String?
    /// `placement_details.layout_id` after normalization (full length); the events routing key.
    public var layoutId: String?
    /// The `at.*` query parameters in URL order (`at.email`, `at.firstname`, `at.lastname`, then the other
    /// `user_details` keys sorted).
    public var userAttributes: [FalconQueryItem]
    /// How many `user_details` members were dropped (empty strings, `null`, arrays or objects).
    public var droppedUserValueCount: Int

    /// Creates a resolution result.
    public init(
        placementId: String?,
        view: String?,
        layoutId: String?,
        userAttributes: [FalconQueryItem],
        droppedUserValueCount: Int
    ) {
        self.placementId = placementId
        self.view = view
        self.layoutId = layoutId
        self.userAttributes = userAttributes
        self.droppedUserValueCount = droppedUserValueCount
    }

    /// `view` capped at 128 characters, as sent in diagnostics and beacons.
    public var diagnosticPlacement: String? { FalconIdentifier.capped(view) }
    /// `layoutId` capped at 128 characters, as sent in diagnostics and beacons.
    public var diagnosticLayoutId: String? { FalconIdentifier.capped(layoutId) }
}

/// One query parameter before percent-encoding.
public struct FalconQueryItem: Sendable, Hashable {
    /// The parameter name, for example `at.email`.
    public var name: String
    /// The parameter value, unencoded.
    public var value: String

    /// Creates a query item.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Resolves `placement_details` and `user_details` as spec §c describes.
///
/// The lookup tries `"<layout_id>/<view>"`, then `"<view>"`, then `"<layout_id>"` in the mapping and falls
/// back to the raw `view`. Identifiers must be strings; they are trimmed and an empty value counts as
/// absent. Mapping keys are matched verbatim; an empty mapping value counts as no entry.
///
/// - Complexity: O(n log n) in the number of `user_details` members.
public enum FalconAttributeResolver: Sendable {
    /// Resolves `attributes` against `mapping`.
    public static func resolve(_ attributes: JSONValue, mapping: [String: String]) -> FalconResolvedAttributes {
        let details = attributes["placement_details"]?.objectValue ?? [:]
        let view = FalconIdentifier.normalize(details["view"])
        let layoutId = FalconIdentifier.normalize(details["layout_id"])
        let (userAttributes, dropped) = userQueryItems(attributes["user_details"]?.objectValue ?? [:])
        return FalconResolvedAttributes(
            placementId: placementId(view: view, layoutId: layoutId, mapping: mapping),
            view: view,
            layoutId: layoutId,
            userAttributes: userAttributes,
            droppedUserValueCount: dropped
        )
    }

    /// The four-step lookup over already normalized identifiers.
    ///
    /// The same answer as ``explain(view:layoutId:mapping:)``, without building the trace.
    public static func placementId(view: String?, layoutId: String?, mapping: [String: String]) -> String? {
        if !mapping.isEmpty {
            if let layoutId, let view, let mapped = mapped(layoutId + "/" + view, in: mapping) { return mapped }
            if let view, let mapped = mapped(view, in: mapping) { return mapped }
            if let layoutId, let mapped = mapped(layoutId, in: mapping) { return mapped }
        }
        return view
    }

    /// The normalized mapping value for `key`; `nil` when there is no entry or it is blank.
    private static func mapped(_ key: String, in mapping: [String: String]) -> String? {
        mapping[key].flatMap { FalconIdentifier.normalize($0) }
    }

    /// The four-step lookup with the outcome of every step, for support tools.
    ///
    /// `view` and `layoutId` are the normalized identifiers (``FalconResolvedAttributes/view`` and
    /// ``FalconResolvedAttributes/layoutId``). The trace stops at the first step that matches; when none does,
    /// it ends with ``FalconPlacementLookup/Step/rawView`` failing with
    /// ``FalconPlacementLookup/Outcome/absentIdentifier``.
    public static func explain(view: String?, layoutId: String?, mapping: [String: String]) -> FalconPlacementLookup {
        var attempts: [FalconPlacementLookup.Attempt] = []
        let steps: [(FalconPlacementLookup.Step, String?)] = [
            (.layoutAndView, layoutId.flatMap { layout in view.map { "\(layout)/\($0)" } }),
            (.view, view),
            (.layout, layoutId),
        ]
        for (step, key) in steps {
            guard let key else {
                attempts.append(.init(step: step, key: nil, outcome: .absentIdentifier))
                continue
            }
            guard let value = mapping[key] else {
                attempts.append(.init(step: step, key: key, outcome: .noMappingEntry))
                continue
            }
            guard let mapped = FalconIdentifier.normalize(value) else {
                attempts.append(.init(step: step, key: key, outcome: .emptyMappingValue))
                continue
            }
            attempts.append(.init(step: step, key: key, outcome: .matched(mapped)))
            return FalconPlacementLookup(attempts: attempts)
        }
        attempts.append(.init(step: .rawView, key: nil, outcome: view.map { .matched($0) } ?? .absentIdentifier))
        return FalconPlacementLookup(attempts: attempts)
    }

    /// The Disco keys sent under another name, in URL order, with their query names.
    private static let renamed: [(source: String, target: String, name: String)] = [
        ("email", "email", "at.email"), ("first_name", "firstname", "at.firstname"),
        ("last_name", "lastname", "at.lastname"),
    ]

    private static func userQueryItems(_ details: [String: JSONValue]) -> ([FalconQueryItem], Int) {
        var items: [FalconQueryItem] = []
        items.reserveCapacity(details.count)
        // The targets of the renamed keys that carried a value (at most three: a list beats a set here).
        var used: [String] = []
        var dropped = 0
        for (source, target, name) in renamed {
            guard let raw = details[source] else { continue }
            if let value = scalarText(raw) {
                items.append(FalconQueryItem(name: name, value: value))
                used.append(target)
            } else {
                dropped += 1
            }
        }
        // Sorted pairs rather than sorted keys: each value is then read without a second lookup.
        for (key, raw) in details.sorted(by: { $0.key < $1.key }) where !isRenamedSource(key) {
            guard let value = scalarText(raw) else {
                dropped += 1
                continue
            }
            // The mapped Disco key wins over a literal duplicate (`first_name` over `firstname`).
            if used.contains(key) { continue }
            items.append(FalconQueryItem(name: "at." + key, value: value))
        }
        return (items, dropped)
    }

    private static func isRenamedSource(_ key: String) -> Bool {
        key == "email" || key == "first_name" || key == "last_name"
    }

    /// The canonical text of a scalar `user_details` value: trimmed strings, `42`, `2.5`, `true`.
    static func scalarText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return FalconIdentifier.normalize(text)
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number):
            guard number.isFinite else { return nil }
            var bytes: [UInt8] = []
            JSONWriter.appendNumber(number, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        case .null, .array, .object: return nil
        }
    }
}
