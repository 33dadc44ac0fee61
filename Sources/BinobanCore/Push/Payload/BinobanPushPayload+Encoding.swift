extension BinobanPushPayload {
    /// The payload as a flat, Firebase-style `userInfo`: every value a string, buttons as JSON text, each
    /// button's uri (and each of ``actionTargets``) stashed under its action id, custom data under the namespace prefix.
    ///
    /// ``parse(_:keys:)`` of the result gives this payload back. Servers and tests use it to build pushes;
    /// the display request uses it as the `userInfo` a presenter attaches to the shown notification. With a key
    /// table that has ``BinobanPushPayloadKeys/problems`` it never traps, but fields sharing a name overwrite
    /// one another.
    ///
    /// - Complexity: O(n) in the number of buttons and custom-data entries.
    public func userInfo(keys: BinobanPushPayloadKeys = .standard) -> JSONValue {
        // Subscripts, not a literal: a literal with two equal keys traps, and a host may configure equal names
        // (``BinobanPushPayloadKeys/problems``). With such a table the later field wins.
        var fields: [String: JSONValue] = [:]
        fields[keys.source] = .string(keys.sourceValue)
        fields[keys.notificationUuid] = .string(notificationUuid)
        if let title { fields[keys.title] = .string(title) }
        if let body { fields[keys.body] = .string(body) }
        if let uri { fields[keys.uri] = .string(uri) }
        if !actions.isEmpty {
            let list: [JSONValue] = actions.map { action in
                var object: [String: JSONValue] = [:]
                object[keys.actionId] = .string(action.id)
                object[keys.actionTitle] = .string(action.title)
                if let uri = action.uri {
                    object[keys.actionUri] = .string(uri)
                    fields[keys.actionUriPrefix + action.id] = .string(uri)
                }
                return .object(object)
            }
            fields[keys.actions] = .string(JSONValue.array(list).jsonString())
        }
        for (id, uri) in actionTargets where fields[keys.actionUriPrefix + id] == nil {
            fields[keys.actionUriPrefix + id] = .string(uri)
        }
        for (key, value) in customData ?? [:] {
            fields[keys.customDataPrefix + key] = .string(value)
        }
        return .object(fields)
    }
}
