#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension BinobanPushPayload {
    /// Reads a Binoban push from a notification's `userInfo`.
    ///
    /// Only a top-level ``BinobanPushPayloadKeys/source`` whose value is exactly the string `binoban` counts;
    /// anything else is ``BinobanPushPayloadParseResult/notBinoban``. Wrongly typed fields are ignored and
    /// reported, buttons beyond three are dropped and reported, and custom-data values that are not strings are
    /// carried as their compact JSON text (`null` is dropped), each reported. A button list given as text is parsed
    /// with `JSONParsingLimits.untrusted` (64 KiB, 64 levels); text over the limits is ignored and reported. A button's uri comes from its
    /// stash key (``BinobanPushPayloadKeys/actionUriPrefix`` + id) when present, else from the button object; a
    /// stash key whose button is not listed goes to ``BinobanPushPayload/actionTargets``.
    ///
    /// ```swift
    /// let result = BinobanPushPayload.parse(["source": "binoban", "binoban_notification_uuid": "n-1"])
    /// result.payload?.notificationUuid  // "n-1"
    /// ```
    ///
    /// - Complexity: O(n) in the number of `userInfo` entries (plus the size of a button list given as text).
    public static func parse(
        _ userInfo: JSONValue,
        keys: BinobanPushPayloadKeys = .standard
    ) -> BinobanPushPayloadParseResult {
        guard case .object(let fields) = userInfo, fields[keys.source] == .string(keys.sourceValue) else {
            return .notBinoban
        }
        var diagnostics: [NotificationDiagnostic] = []
        guard let uuid = fields[keys.notificationUuid]?.stringValue, !uuid.isBlank else {
            diagnostics.append(
                NotificationDiagnostic(
                    code: .missingNotificationUuid,
                    message: "Binoban payload without a string '\(keys.notificationUuid)'; ignored"
                )
            )
            return .malformed(diagnostics: diagnostics)
        }
        var payload = BinobanPushPayload(notificationUuid: uuid)
        payload.title = optionalString(fields, keys.title, diagnostics: &diagnostics)
        payload.body = optionalString(fields, keys.body, diagnostics: &diagnostics)
        payload.uri = optionalString(fields, keys.uri, diagnostics: &diagnostics).flatMap { $0.isBlank ? nil : $0 }
        payload.actions = parseActions(fields, keys: keys, diagnostics: &diagnostics)
        payload.customData = parseCustomData(fields, prefix: keys.customDataPrefix, diagnostics: &diagnostics)
        payload.actionTargets = parseActionTargets(fields, keys: keys, listed: payload.actions)
        return .binoban(payload, diagnostics: diagnostics)
    }

    private static func optionalString(
        _ fields: [String: JSONValue],
        _ key: String,
        diagnostics: inout [NotificationDiagnostic]
    ) -> String? {
        switch fields[key] {
        case nil, .null?:
            return nil
        case .string(let value)?:
            return value
        case _?:
            diagnostics.append(NotificationDiagnostic(code: .invalidField, message: "'\(key)' is not a string"))
            return nil
        }
    }

    private static func parseActions(
        _ fields: [String: JSONValue],
        keys: BinobanPushPayloadKeys,
        diagnostics: inout [NotificationDiagnostic]
    ) -> [BinobanPushAction] {
        let elements: [JSONValue]
        switch fields[keys.actions] {
        case nil, .null?:
            return []
        case .array(let array)?:
            elements = array
        case .string(let text)?:
            // Firebase data values are strings, so the button list usually arrives as JSON text. It comes from
            // the network: parse it with the limits of untrusted input, in time linear in its length.
            let decoded: JSONValue
            do {
                decoded = try JSONValue(parsing: text, limits: .untrusted)
            } catch {
                diagnostics.append(
                    NotificationDiagnostic(
                        code: .invalidField, message: "'\(keys.actions)' was rejected as JSON text (\(error))")
                )
                return []
            }
            guard case .array(let array) = decoded else {
                diagnostics.append(
                    NotificationDiagnostic(code: .invalidField, message: "'\(keys.actions)' is not a JSON array")
                )
                return []
            }
            elements = array
        case _?:
            diagnostics.append(
                NotificationDiagnostic(code: .invalidField, message: "'\(keys.actions)' is not an array"))
            return []
        }
        var actions: [BinobanPushAction] = []
        var seen: Set<String> = []
        var extra = 0
        for element in elements {
            guard case .object(let object) = element, let id = object[keys.actionId]?.stringValue, !id.isBlank,
                !seen.contains(id)
            else {
                diagnostics.append(
                    NotificationDiagnostic(
                        code: .invalidActionDropped,
                        message: "an action without a string id, or with a repeated id, was dropped"
                    )
                )
                continue
            }
            guard actions.count < maximumActionCount else {
                extra += 1
                continue
            }
            seen.insert(id)
            let stashed = fields[keys.actionUriPrefix + id]?.stringValue
            let own = object[keys.actionUri]?.stringValue
            let uri = [stashed, own].lazy.compactMap { $0 }.first { !$0.isBlank }
            actions.append(BinobanPushAction(id: id, title: object[keys.actionTitle]?.stringValue ?? "", uri: uri))
        }
        if extra > 0 {
            diagnostics.append(
                NotificationDiagnostic(
                    code: .extraActionsDropped,
                    message: "\(extra) action button(s) beyond the limit of \(maximumActionCount) were dropped"
                )
            )
        }
        return actions
    }

    /// The non-blank string targets under the per-button prefix whose button is not listed (listed buttons
    /// already carry theirs).
    private static func parseActionTargets(
        _ fields: [String: JSONValue],
        keys: BinobanPushPayloadKeys,
        listed: [BinobanPushAction]
    ) -> [String: String] {
        let prefix = keys.actionUriPrefix
        guard !prefix.isEmpty else { return [:] }
        var targets: [String: String] = [:]
        for (key, value) in fields where key.utf8.starts(with: prefix.utf8) {
            let id = String(decoding: key.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
            guard !id.isBlank, case .string(let uri) = value, !uri.isBlank,
                !listed.contains(where: { $0.id == id })
            else { continue }
            targets[id] = uri
        }
        return targets
    }

    private static func parseCustomData(
        _ fields: [String: JSONValue],
        prefix: String,
        diagnostics: inout [NotificationDiagnostic]
    ) -> [String: String]? {
        var customData: [String: String] = [:]
        let prefixLength = prefix.utf8.count
        for (key, value) in fields where key.utf8.starts(with: prefix.utf8) {
            // Compare and cut on UTF-8 bytes: a key whose first character after the prefix is a combining mark
            // would not match a Character-based `hasPrefix`.
            let name = String(decoding: key.utf8.dropFirst(prefixLength), as: UTF8.self)
            switch value {
            case .string(let text):
                customData[name] = text
            case .null:
                diagnostics.append(
                    NotificationDiagnostic(
                        code: .customDataValueConverted, message: "custom data '\(name)' is null; dropped")
                )
            default:
                customData[name] = value.jsonString()
                diagnostics.append(
                    NotificationDiagnostic(
                        code: .customDataValueConverted,
                        message: "custom data '\(name)' is not a string; carried as JSON text"
                    )
                )
            }
        }
        return customData.isEmpty ? nil : customData
    }
}

extension String {
    /// Whether the string is empty or whitespace and newlines only.
    var isBlank: Bool { allSatisfy(\.isWhitespace) }
}
