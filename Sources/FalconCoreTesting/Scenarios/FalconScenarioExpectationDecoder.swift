/// Validates one entry of a scenario's `expect` list: a known `type` and only the fields that type has.
enum FalconScenarioExpectationDecoder {
    /// The fields each output type may name, and their JSON kinds.
    enum Kind {
        case string, stringOrNull, integer, number, object

        func accepts(_ value: JSONValue) -> Bool {
            switch (self, value) {
            case (.string, .string), (.stringOrNull, .string), (.stringOrNull, .null), (.integer, .int),
                (.number, .int), (.number, .double), (.object, .object):
                true
            default:
                false
            }
        }

        var name: String {
            switch self {
            case .string: "a string"
            case .stringOrNull: "a string or null"
            case .integer: "an integer"
            case .number: "a number"
            case .object: "an object"
            }
        }
    }

    static let schema: [String: [String: Kind]] = [
        "callback": ["name": .string, "error": .string, "execution": .integer],
        "event": ["name": .string, "layoutId": .string, "error": .string],
        "diagnostic": ["code": .string, "placement": .stringOrNull, "layoutId": .stringOrNull],
        "beacon": ["url": .string, "body": .object, "fields": .object],
        "load": ["surface": .string, "url": .string, "urlPattern": .string],
        "stop": ["surface": .string],
        "teardown": ["surface": .string],
        "setContentHeight": ["surface": .string, "height": .number],
        "openExternally": ["surface": .string, "url": .string],
        "present": [:],
        "dismiss": [:],
    ]

    static let callbackNames = [
        "onShouldShowLoadingIndicator", "onShouldHideLoadingIndicator", "onLoad", "onUnload", "onError",
    ]
    static let eventNames = ["placementInteractive", "placementCompleted", "placementFailure"]
    static let errorNames = ["initNotCalled", "placementLoadError"]

    static func decode(_ value: JSONValue, path: String) throws(FalconScenarioDecodingError)
        -> FalconScenarioExpectation
    {
        guard var members = value.objectValue else {
            throw FalconScenarioDecodingError(
                path: path, message: "expected an object, found \(ScenarioObjectReader.kind(value))")
        }
        guard let typeValue = members.removeValue(forKey: "type") else {
            throw FalconScenarioDecodingError(path: "\(path).type", message: "is required")
        }
        let types = schema.keys.sorted()
        guard let type = typeValue.stringValue, var fields = schema[type] else {
            throw FalconScenarioDecodingError(
                path: "\(path).type",
                message:
                    "expected one of \(types.joined(separator: ", ")), found \(ScenarioObjectReader.kind(typeValue))"
            )
        }
        if type != "beacon" { fields["at"] = Kind.integer }
        for key in members.keys.sorted() {
            guard let kind = fields[key] else {
                let allowed = fields.keys.sorted().joined(separator: ", ")
                throw FalconScenarioDecodingError(
                    path: "\(path).\(key)",
                    message: "unknown field for a \(type) output"
                        + (allowed.isEmpty ? " (it has none)" : " (allowed: \(allowed))")
                )
            }
            if let member = members[key], !kind.accepts(member) {
                throw FalconScenarioDecodingError(
                    path: "\(path).\(key)", message: "expected \(kind.name), found \(ScenarioObjectReader.kind(member))"
                )
            }
        }
        try check(
            members["name"], in: type == "callback" ? callbackNames : type == "event" ? eventNames : nil, "\(path).name"
        )
        try check(members["error"], in: errorNames, "\(path).error")
        if type == "diagnostic" {
            guard let code = members["code"]?.stringValue else {
                throw FalconScenarioDecodingError(path: "\(path).code", message: "is required")
            }
            try check(.string(code), in: FalconDiagnosticCode.allCases.map(\.rawValue), "\(path).code")
        }
        if type == "callback" || type == "event", members["name"] == nil {
            throw FalconScenarioDecodingError(path: "\(path).name", message: "is required")
        }
        if members["url"] != nil, members["urlPattern"] != nil {
            throw FalconScenarioDecodingError(
                path: "\(path).urlPattern", message: "give either url or urlPattern, not both")
        }
        return FalconScenarioExpectation(type: type, fields: members)
    }

    private static func check(_ value: JSONValue?, in choices: [String]?, _ path: String)
        throws(FalconScenarioDecodingError)
    {
        guard let choices, let text = value?.stringValue, !choices.contains(text) else { return }
        throw FalconScenarioDecodingError(
            path: path, message: "expected one of \(choices.joined(separator: ", ")), found \"\(text)\"")
    }
}
