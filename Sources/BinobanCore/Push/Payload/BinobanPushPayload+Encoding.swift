extension BinobanPushPayload {
    /// The payload as a flat, Firebase-style `userInfo`: every value a string, buttons as JSON text, each
    /// button's uri also stashed under its action id, custom data under the namespace prefix.
    ///
    /// ``parse(_:keys:)`` of the result gives this payload back. Servers and tests use it to build pushes;
    /// the display request uses it as the `userInfo` a presenter attaches to the shown notification.
    ///
    /// - Complexity: O(n) in the number of buttons and custom-data entries.
    public func userInfo(keys: BinobanPushPayloadKeys = .standard) -> JSONValue {
        var fields: [String: JSONValue] = [
            keys.source: .string(keys.sourceValue),
            keys.notificationUuid: .string(notificationUuid),
        ]
        if let title { fields[keys.title] = .string(title) }
        if let body { fields[keys.body] = .string(body) }
        if let uri { fields[keys.uri] = .string(uri) }
        if !actions.isEmpty {
            let list: [JSONValue] = actions.map { action in
                var object: [String: JSONValue] = [
                    keys.actionId: .string(action.id), keys.actionTitle: .string(action.title),
                ]
                if let uri = action.uri {
                    object[keys.actionUri] = .string(uri)
                    fields[keys.actionUriPrefix + action.id] = .string(uri)
                }
                return .object(object)
            }
            fields[keys.actions] = .string(JSONValue.array(list).jsonString())
        }
        for (key, value) in customData ?? [:] {
            fields[keys.customDataPrefix + key] = .string(value)
        }
        return .object(fields)
    }
}
