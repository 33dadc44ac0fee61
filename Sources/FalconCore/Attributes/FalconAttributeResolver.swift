/// The outcome of resolving an attributes dictionary: the placement id and the values the URL carries.
@_spi(Tooling) public struct FalconResolvedAttributes: Sendable, Hashable {
    /// The Falcon placement id after the mapping lookup, or `nil` when nothing resolved.
    @_spi(Tooling) public var placementId: String?
    /// `placement_details.view` after normalization (full length).
    @_spi(Tooling) public var view: String?
    /// `placement_details.layout_id` after normalization (full length); the events routing key.
    @_spi(Tooling) public var layoutId: String?
    /// The `at.*` query parameters in URL order (`at.email`, `at.firstname`, `at.lastname`, then the other
    /// `user_details` keys sorted).
    @_spi(Tooling) public var userAttributes: [FalconQueryItem]
    /// How many `user_details` members were dropped (empty strings, `null`, arrays or objects).
    package var droppedUserValueCount: Int

    /// Creates a resolution result.
    package init(
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

    /// `view` capped at 128 characters (and 8 KiB of UTF-8), as sent in diagnostics and beacons.
    package var diagnosticPlacement: String? { FalconIdentifier.capped(view) }
    /// `layoutId` capped at 128 characters (and 8 KiB of UTF-8), as sent in diagnostics and beacons.
    package var diagnosticLayoutId: String? { FalconIdentifier.capped(layoutId) }
}

/// One query parameter before percent-encoding.
@_spi(Tooling) public struct FalconQueryItem: Sendable, Hashable {
    /// The parameter name, for example `at.email`.
    @_spi(Tooling) public var name: String
    /// The parameter value, unencoded.
    @_spi(Tooling) public var value: String

    /// Creates a query item.
    package init(name: String, value: String) {
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
/// Hosts get the outcome through ``FalconConfig/placementURL(attributes:apiKey:sessionId:isSandbox:style:)``
/// or an execute; the resolver itself is SPI for the benchmarks (`@_spi(Tooling) import FalconCore`).
///
/// - Complexity: O(n log n) in the number of `user_details` members.
@_spi(Tooling) public enum FalconAttributeResolver: Sendable {
    /// Resolves `attributes` against `mapping`.
    @_spi(Tooling) public static func resolve(_ attributes: JSONValue, mapping: [String: String])
        -> FalconResolvedAttributes
    {
        guard case .object(let root) = attributes else {
            return FalconResolvedAttributes(
                placementId: nil, view: nil, layoutId: nil, userAttributes: [], droppedUserValueCount: 0)
        }
        let (placementDetails, userDetails, _) = FalconObjectMembers.lookUp(root, "placement_details", "user_details")
        let details = placementDetails?.objectValue ?? [:]
        let (rawView, rawLayoutId, _) = FalconObjectMembers.lookUp(details, "view", "layout_id")
        let view = FalconIdentifier.normalize(rawView)
        let layoutId = FalconIdentifier.normalize(rawLayoutId)
        let (userAttributes, dropped) = userQueryItems(userDetails?.objectValue ?? [:])
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
    /// The same answer as `explain(view:layoutId:mapping:)`, without building the trace.
    package static func placementId(view: String?, layoutId: String?, mapping: [String: String]) -> String? {
        if !mapping.isEmpty {
            if let layoutId, let view,
                let mapped = mapped(joined(layoutId, view, separator: UInt8(ascii: "/")), in: mapping)
            {
                return mapped
            }
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
    /// it ends with `FalconPlacementLookup.Step.rawView` failing with
    /// `FalconPlacementLookup.Outcome.absentIdentifier`.
    package static func explain(view: String?, layoutId: String?, mapping: [String: String]) -> FalconPlacementLookup {
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

    /// The `at.*` items of `user_details` in URL order, and how many members were dropped.
    ///
    /// One pass over the members: `email`, `first_name` and `last_name` (the Disco keys sent under another
    /// name) go into their slots, every other scalar member becomes an item; the others are then sorted by
    /// name (every name starts with `at.`, so that is the key order) and the renamed ones put in front. A
    /// literal `firstname` or `lastname` is dropped from the URL when the mapped key carried a value, but a
    /// non-scalar one still counts as dropped.
    private static func userQueryItems(_ details: [String: JSONValue]) -> ([FalconQueryItem], Int) {
        var items: [FalconQueryItem] = []
        items.reserveCapacity(details.count)
        var email: String?
        var firstName: String?
        var lastName: String?
        var literalTargets = 0  // scalar `firstname` / `lastname` members among the items
        var dropped = 0
        for (key, raw) in details {
            let value = scalarText(raw)
            if value == nil { dropped += 1 }
            switch renamedSource(key) {
            case .email: email = value
            case .firstName: firstName = value
            case .lastName: lastName = value
            case nil:
                guard let value else { continue }
                if isRenamedTarget(key) { literalTargets += 1 }
                items.append(FalconQueryItem(name: queryName(key), value: value))
            }
        }
        items.sort { $0.name < $1.name }
        if literalTargets > 0 {
            items.removeAll {
                (firstName != nil && $0.name == "at.firstname") || (lastName != nil && $0.name == "at.lastname")
            }
        }
        // The renamed ones go in front, last first. The array already has room for every member, so each insert
        // moves the few sorted items along in place, with no second array.
        if let lastName { items.insert(FalconQueryItem(name: "at.lastname", value: lastName), at: 0) }
        if let firstName { items.insert(FalconQueryItem(name: "at.firstname", value: firstName), at: 0) }
        if let email { items.insert(FalconQueryItem(name: "at.email", value: email), at: 0) }
        return (items, dropped)
    }

    private enum RenamedSource {
        case email, firstName, lastName
    }

    /// Which renamed Disco key `key` is, if any (the length is checked first: most keys differ there).
    private static func renamedSource(_ key: String) -> RenamedSource? {
        switch key.utf8.count {
        case 5: key == "email" ? .email : nil
        case 10: key == "first_name" ? .firstName : nil
        case 9: key == "last_name" ? .lastName : nil
        default: nil
        }
    }

    /// Whether `key` is the query name of a renamed key written literally (`firstname`, `lastname`).
    private static func isRenamedTarget(_ key: String) -> Bool {
        let count = key.utf8.count
        return (count == 9 && key == "firstname") || (count == 8 && key == "lastname")
    }

    /// `at.<key>`, written in one go (a name of up to 15 bytes stays a small string: no allocation). Not
    /// ``joined(_:_:separator:)``: writing the literal prefix byte by byte is the cheaper of the two on the
    /// resolve's hot path (measured in Docs/Performance.md).
    static func queryName(_ key: String) -> String {
        var key = key
        return key.withUTF8 { tail in
            String(unsafeUninitializedCapacity: 3 + tail.count) { buffer in
                buffer[0] = UInt8(ascii: "a")
                buffer[1] = UInt8(ascii: "t")
                buffer[2] = UInt8(ascii: ".")
                return 3 + UnsafeMutableBufferPointer(rebasing: buffer[3...]).initialize(fromContentsOf: tail)
            }
        }
    }

    /// `prefix` followed by `suffix`, sized once (`+` builds an intermediate for a three-part key).
    static func joined(_ prefix: String, _ suffix: String, separator: UInt8? = nil) -> String {
        var prefix = prefix
        var suffix = suffix
        return prefix.withUTF8 { head in
            suffix.withUTF8 { tail in
                let count = head.count + (separator == nil ? 0 : 1) + tail.count
                return String(unsafeUninitializedCapacity: count) { buffer in
                    var index = buffer.initialize(fromContentsOf: head)
                    if let separator {
                        buffer[index] = separator
                        index += 1
                    }
                    index += UnsafeMutableBufferPointer(rebasing: buffer[index...]).initialize(fromContentsOf: tail)
                    return index
                }
            }
        }
    }

    /// The canonical text of a scalar `user_details` value: trimmed strings, `42`, `2.5`, `true`.
    static func scalarText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return FalconIdentifier.normalize(text)
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number):
            guard number.isFinite else { return nil }
            if let short = FalconShortDecimal.text(number) { return short }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(24)  // the longest shortest round-trip spelling of a Double
            JSONWriter.appendNumber(number, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        case .null, .array, .object: return nil
        }
    }
}
