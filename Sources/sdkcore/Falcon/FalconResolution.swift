@_spi(Tooling) import FalconCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `sdkcore falcon resolve` computes: the lookup trace, the masked webview URL and the identifiers a
/// diagnostic would carry, or the diagnostic code an execute would emit.
struct FalconResolution {
    /// The failure an execute would report.
    struct Failure {
        var code: FalconDiagnosticCode
        var reason: String
    }

    /// The placeholder session id in the printed URL (a real execute makes a new UUID each time).
    static let placeholderSessionId = "00000000-0000-0000-0000-000000000000"
    /// What replaces the API key in the printed URL.
    static let maskedAPIKey = "****"

    var resolved: FalconResolvedAttributes
    var lookup: FalconPlacementLookup
    var maskedURL: String?
    var failure: Failure?

    init(attributes: JSONValue, mapping: [String: String], baseURL: String, apiKey: String, isSandbox: Bool) {
        resolved = FalconAttributeResolver.resolve(attributes, mapping: mapping)
        lookup = FalconAttributeResolver.explain(view: resolved.view, layoutId: resolved.layoutId, mapping: mapping)
        guard let placementId = lookup.placementId else {
            failure = Failure(
                code: .attributeMappingFailed,
                reason: "the attributes did not resolve to a placement (no mapping entry applied and no view)"
            )
            return
        }
        guard let base = URL(string: baseURL) else {
            failure = Failure(code: .urlConstructionFailed, reason: "the base URL is not a URL")
            return
        }
        let built = FalconWebviewURLBuilder.build(
            baseURL: base,
            apiKey: apiKey,
            placementId: placementId,
            sessionId: Self.placeholderSessionId,
            userAttributes: resolved.userAttributes,
            isSandbox: isSandbox,
            style: nil
        )
        switch built {
        case .success(let url):
            maskedURL = Self.maskingAPIKey(url.absoluteString)
        case .failure(let reason):
            failure = Failure(code: .urlConstructionFailed, reason: Self.describe(reason))
        }
    }

    /// `text` with the value of its `apiKey` query parameter replaced by `****`.
    static func maskingAPIKey(_ text: String) -> String {
        guard let question = text.firstIndex(of: "?") else { return text }
        let query = text[text.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
        let masked = query.map { item in item.hasPrefix("apiKey=") ? "apiKey=\(maskedAPIKey)" : String(item) }
        return String(text[...question]) + masked.joined(separator: "&")
    }

    static func describe(_ failure: FalconWebviewURLBuilder.Failure) -> String {
        switch failure {
        case .invalidBaseURL:
            "the base URL must be https (http only for 127.0.0.1, localhost or [::1]) with a host and no query or fragment"
        case .blankAPIKey: "the API key is blank"
        case .missingPlacement: "the placement id is empty"
        case .unrepresentable: "the assembled text is not a valid URL"
        }
    }

    /// `<layout>/<view>`, `<view>`, `<layout>` or `raw view`.
    static func label(_ step: FalconPlacementLookup.Step) -> String {
        switch step {
        case .layoutAndView: "<layout>/<view>"
        case .view: "<view>"
        case .layout: "<layout>"
        case .rawView: "raw view"
        }
    }

    /// Why a step did (or did not) give the placement id, in words.
    static func explanation(_ attempt: FalconPlacementLookup.Attempt) -> String {
        let key = attempt.key.map { "\"\($0)\"" } ?? ""
        switch attempt.outcome {
        case .matched(let id):
            return attempt.step == .rawView
                ? "matched: the raw view \"\(id)\" is the placement id" : "matched \(key) → \"\(id)\""
        case .noMappingEntry:
            return "no mapping entry for \(key)"
        case .emptyMappingValue:
            return "the mapping entry for \(key) is empty (counts as no entry)"
        case .absentIdentifier:
            switch attempt.step {
            case .layoutAndView: return "skipped: needs both view and layout_id"
            case .view: return "skipped: view is absent"
            case .layout: return "skipped: layout_id is absent"
            case .rawView: return "failed: view is absent"
            }
        }
    }

    static func outcomeName(_ outcome: FalconPlacementLookup.Outcome) -> String {
        switch outcome {
        case .matched: "matched"
        case .noMappingEntry: "noMappingEntry"
        case .emptyMappingValue: "emptyMappingValue"
        case .absentIdentifier: "absentIdentifier"
        }
    }

    // MARK: Output

    var text: String {
        func quoted(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "(absent)" }
        var lines: [String] = []
        lines.append("placement id   " + (lookup.placementId.map { "\"\($0)\"" } ?? "(none)"))
        if let step = lookup.matchedStep {
            lines.append("matched step   \(Self.label(step))")
        }
        for (index, attempt) in lookup.attempts.enumerated() {
            let prefix = index == 0 ? "lookup         " : "               "
            let label = Self.label(attempt.step).padding(to: 16)
            lines.append("\(prefix)\(index + 1). \(label) \(Self.explanation(attempt))")
        }
        if let maskedURL {
            lines.append("webview URL    \(maskedURL)")
            lines.append("               (API key masked; sessionId is a placeholder: each execute makes a new one)")
        }
        lines.append(
            "diagnostics    placement \(quoted(resolved.diagnosticPlacement)), layoutId \(quoted(resolved.diagnosticLayoutId))"
                + " (each capped at 128 characters)")
        let names = resolved.userAttributes.map(\.name)
        lines.append(
            "user details   \(names.count) query parameter(s)"
                + (names.isEmpty ? "" : " (\(names.joined(separator: ", ")))")
                + ", \(resolved.droppedUserValueCount) value(s) dropped")
        if let failure {
            lines.append("diagnostic     \(failure.code.rawValue): \(failure.reason)")
        } else {
            lines.append("result         ok")
        }
        return lines.joined(separator: "\n")
    }

    var json: JSONValue {
        func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        let attempts: [JSONValue] = lookup.attempts.map { attempt in
            var entry: [String: JSONValue] = [
                "step": .string(attempt.step.rawValue),
                "label": .string(Self.label(attempt.step)),
                "key": optional(attempt.key),
                "outcome": .string(Self.outcomeName(attempt.outcome)),
                "explanation": .string(Self.explanation(attempt)),
            ]
            if case .matched(let id) = attempt.outcome { entry["placementId"] = .string(id) }
            return .object(entry)
        }
        return [
            "placementId": optional(lookup.placementId),
            "matchedStep": optional(lookup.matchedStep?.rawValue),
            "lookup": .array(attempts),
            "url": optional(maskedURL),
            "sessionId": .string(Self.placeholderSessionId),
            "diagnosticIdentifiers": [
                "placement": optional(resolved.diagnosticPlacement),
                "layoutId": optional(resolved.diagnosticLayoutId),
            ],
            "userAttributes": .array(resolved.userAttributes.map { .string($0.name) }),
            "droppedUserValues": .int(resolved.droppedUserValueCount),
            "failure": failure.map { ["code": .string($0.code.rawValue), "reason": .string($0.reason)] } ?? .null,
        ]
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
