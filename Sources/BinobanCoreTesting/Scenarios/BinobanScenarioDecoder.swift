#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes Binoban scenario documents strictly: unknown fields and wrong types are errors naming the field.
///
/// ```swift
/// let scenario = try BinobanScenarioDecoder.decode(Data(contentsOf: fileURL))
/// ```
public enum BinobanScenarioDecoder: Sendable {
    typealias Failure = BinobanScenarioDecodingError

    /// Parses and decodes a scenario file's bytes.
    public static func decode(_ data: Data) throws(BinobanScenarioDecodingError) -> BinobanScenario {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: data, limits: JSONParsingLimits(maximumBytes: 16 << 20))
        } catch {
            if let location = JSONSyntaxLocator.firstError(in: Array(data)) {
                throw Failure(
                    path: "", message: "not valid JSON: \(location.reason)", line: location.line,
                    column: location.column)
            }
            throw Failure(path: "", message: "not valid JSON: \(error)")
        }
        return try decode(document)
    }

    /// Decodes an already parsed scenario document.
    public static func decode(_ document: JSONValue) throws(BinobanScenarioDecodingError) -> BinobanScenario {
        let root = try Reader(document, path: "")
        try root.allow(["format", "core", "name", "description", "config", "steps", "expect"])
        guard try root.integer("format") == 1 else {
            throw Failure(path: "format", message: "unsupported format (this runner reads format 1)")
        }
        guard try root.string("core") == "binoban" else {
            throw Failure(path: "core", message: "expected \"binoban\"")
        }
        let name = try root.string("name") ?? ""
        guard !name.isEmpty else { throw Failure(path: "name", message: "is required") }
        let config = try decodeConfig(root.child("config"))
        guard let stepValues = try root.array("steps") else { throw Failure(path: "steps", message: "is required") }
        var steps: [BinobanScenario.Step] = []
        var previous: Int64 = 0
        for (index, value) in stepValues.enumerated() {
            let step = try decodeStep(Reader(value, path: "steps[\(index)]"))
            guard step.at >= previous else {
                throw Failure(
                    path: "steps[\(index)].at", message: "\(step.at) is earlier than the step before (\(previous))")
            }
            previous = step.at
            steps.append(step)
        }
        guard let expect = try root.array("expect") else { throw Failure(path: "expect", message: "is required") }
        for (index, value) in expect.enumerated() {
            guard value.objectValue != nil, value["type"]?.stringValue != nil else {
                throw Failure(path: "expect[\(index)]", message: "expected an object with a string \"type\"")
            }
            guard let type = value["type"]?.stringValue, outputTypes.contains(type) else {
                throw Failure(
                    path: "expect[\(index)].type",
                    message: "unknown output \(value["type"] ?? .null) (\(outputTypes.joined(separator: ", ")))")
            }
        }
        return BinobanScenario(
            name: name, description: try root.string("description") ?? "", config: config, steps: steps,
            expect: expect)
    }

    /// Every output type a runner records.
    static let outputTypes = [
        "request", "error", "flushResult", "eventOutcome", "interaction", "drained", "display", "permissionRequest",
        "diagnostic",
    ]

    /// `{"drop": "<event name>", "reason": "<text>"}` or `{"removeProperty": "<key>"}`.
    private static func stage(_ value: JSONValue, path: String) throws(Failure) -> BinobanScenario.Stage {
        guard let members = value.objectValue else {
            throw Failure(path: path, message: "expected {\"drop\": …, \"reason\": …} or {\"removeProperty\": …}")
        }
        if let event = members["drop"]?.stringValue, let reason = members["reason"]?.stringValue,
            members.count == 2
        {
            return .drop(event: event, reason: reason)
        }
        if let key = members["removeProperty"]?.stringValue, members.count == 1 {
            return .removeProperty(key)
        }
        throw Failure(
            path: path, message: "expected {\"drop\": string, \"reason\": string} or {\"removeProperty\": string}")
    }

    private static func decodeConfig(_ reader: Reader?) throws(Failure) -> BinobanScenario.Config {
        var config = BinobanScenario.Config()
        guard let reader else { return config }
        try reader.allow([
            "apiKey", "sourceIdentifier", "apiHost", "flushAt", "flushInterval", "uploadMaxRetries",
            "backoffBaseMillis", "backoffMaxMillis", "maxFilesPerFlush", "maxEventBytes", "wallClockStartMs",
            "maxFinishedBatches", "maxTotalBytes", "retryAfterLimitMillis", "maxConcurrentUploads", "backpressure",
            "writeStageCapacity", "compressesUploads", "allowsCleartextHost", "stages",
            "random", "transport", "notifications", "trackApplicationLifecycleEvents", "storedApplication",
        ])
        if let value = try reader.string("apiKey") { config.apiKey = value }
        if let value = try reader.string("sourceIdentifier") { config.sourceIdentifier = value }
        if let value = try reader.string("apiHost") { config.apiHost = value }
        if let value = try reader.integer("flushAt") { config.flushAt = value }
        if let value = try reader.number("flushInterval") { config.flushInterval = value }
        if let value = try reader.integer("uploadMaxRetries") { config.uploadMaxRetries = value }
        if let value = try reader.integer("backoffBaseMillis") { config.backoffBaseMillis = value }
        if let value = try reader.integer("backoffMaxMillis") { config.backoffMaxMillis = value }
        if let value = try reader.integer("maxFilesPerFlush") { config.maxFilesPerFlush = value }
        if let value = try reader.integer("maxEventBytes") { config.maxEventBytes = value }
        if let value = try reader.integer("maxFinishedBatches") { config.maxFinishedBatches = value }
        if let value = try reader.integer("maxTotalBytes") { config.maxTotalBytes = value }
        if let value = try reader.integer("retryAfterLimitMillis") { config.retryAfterLimitMillis = Int64(value) }
        if let value = try reader.integer("maxConcurrentUploads") { config.maxConcurrentUploads = value }
        if let value = try reader.integer("writeStageCapacity") { config.writeStageCapacity = value }
        if let value = try reader.string("backpressure") {
            switch value {
            case "dropOldest": config.backpressure = .dropOldest
            case "dropNewest": config.backpressure = .dropNewest
            case "wait": config.backpressure = .wait
            default:
                throw Failure(
                    path: "config.backpressure", message: "expected \"dropOldest\", \"dropNewest\" or \"wait\"")
            }
        }
        if let value = try reader.integer("wallClockStartMs") { config.wallClockStartMs = Int64(value) }
        if let random = try reader.child("random") {
            try random.allow(["unitValues"])
            guard let values = try random.array("unitValues") else {
                throw Failure(path: "config.random.unitValues", message: "is required")
            }
            var units: [Double] = []
            for (index, value) in values.enumerated() {
                guard let number = value.doubleValue, number >= 0, number < 1 else {
                    throw Failure(path: "config.random.unitValues[\(index)]", message: "expected a number in 0..<1")
                }
                units.append(number)
            }
            config.randomUnitValues = units
        }
        if let transport = try reader.child("transport") {
            try transport.allow(["script", "default"])
            if let script = try transport.array("script") {
                config.transportScript = try script.enumerated().map { (index, value) throws(Failure) in
                    try answer(value, path: "config.transport.script[\(index)]")
                }
            }
            if let value = transport.value("default") {
                config.transportDefault = try answer(value, path: "config.transport.default")
            }
        }
        if let notifications = try reader.child("notifications") {
            config.notifications = try decodeNotifications(notifications)
        }
        if let value = try reader.bool("compressesUploads") { config.compressesUploads = value }
        if let value = try reader.bool("allowsCleartextHost") { config.allowsCleartextHost = value }
        if let stages = try reader.array("stages") {
            config.stages = try stages.enumerated().map { (index, value) throws(Failure) in
                try stage(value, path: "config.stages[\(index)]")
            }
        }
        if let value = try reader.bool("trackApplicationLifecycleEvents") {
            config.trackApplicationLifecycleEvents = value
        }
        if let stored = try reader.child("storedApplication") {
            try stored.allow(["version", "build"])
            guard let version = try stored.string("version"), let build = try stored.string("build") else {
                throw Failure(path: stored.path, message: "expected {\"version\": string, \"build\": string}")
            }
            config.storedApplication = BinobanScenario.StoredApplication(version: version, build: build)
        }
        return config
    }

    private static func decodeNotifications(_ reader: Reader) throws(Failure) -> BinobanScenario.Notifications {
        var settings = BinobanScenario.Notifications()
        try reader.allow([
            "attached", "display", "permission", "replayCapacity", "deliveredMemory", "pendingEventCapacity",
        ])
        if let value = try reader.bool("attached") { settings.attached = value }
        if let value = reader.value("display") {
            let path = reader.path + ".display"
            let expected = "expected \"displayed\", {\"notDisplayed\": reason} or {\"failed\": reason}"
            if value.stringValue == "displayed" {
                settings.display = .displayed
            } else if let members = value.objectValue, members.count == 1, let (key, reason) = members.first,
                let text = reason.stringValue
            {
                switch key {
                case "notDisplayed": settings.display = .notDisplayed(reason: text)
                case "failed": settings.display = .failed(reason: text)
                default: throw Failure(path: path, message: expected)
                }
            } else {
                throw Failure(path: path, message: expected)
            }
        }
        if let value = try reader.string("permission") {
            switch value {
            case "granted": settings.permission = .granted
            case "denied": settings.permission = .denied
            case "unavailable": settings.permission = .unavailable
            default:
                throw Failure(
                    path: reader.path + ".permission", message: "expected \"granted\", \"denied\" or \"unavailable\"")
            }
        }
        for (key, keyPath) in [
            ("replayCapacity", \BinobanScenario.Notifications.replayCapacity),
            ("deliveredMemory", \.deliveredMemory), ("pendingEventCapacity", \.pendingEventCapacity),
        ] {
            guard let value = try reader.integer(key) else { continue }
            guard value >= 0 else { throw Failure(path: "\(reader.path).\(key)", message: "expected an integer ≥ 0") }
            settings[keyPath: keyPath] = value
        }
        return settings
    }

    private static func answer(_ value: JSONValue, path: String) throws(Failure) -> BinobanScenario.TransportAnswer {
        if case .int(let status) = value { return .status(status, headers: [:]) }
        if value.stringValue == "networkError" { return .networkError }
        let reader = try Reader(value, path: path)
        try reader.allow(["status", "headers"])
        guard let status = try reader.integer("status") else {
            throw Failure(path: path, message: "expected a status, {\"status\":…,\"headers\":{…}} or \"networkError\"")
        }
        var headers: [String: String] = [:]
        if let object = try reader.child("headers") {
            for (key, header) in object.members {
                guard let text = header.stringValue else {
                    throw Failure(path: "\(path).headers.\(key)", message: "expected a string")
                }
                headers[key] = text
            }
        }
        return .status(status, headers: headers)
    }

    private static func decodeStep(_ reader: Reader) throws(Failure) -> BinobanScenario.Step {
        try reader.allow(["at", "input"])
        guard let at = try reader.integer("at"), at >= 0 else {
            throw Failure(path: reader.path + ".at", message: "expected an integer ≥ 0 (virtual milliseconds)")
        }
        guard let input = try reader.child("input") else {
            throw Failure(path: reader.path + ".input", message: "is required")
        }
        guard let type = try input.string("type") else {
            throw Failure(path: input.path + ".type", message: "is required")
        }
        func only(_ fields: [String]) throws(Failure) { try input.allow(Set(["type"] + fields)) }
        func required<T>(_ value: T?, _ field: String) throws(Failure) -> T {
            guard let value else { throw Failure(path: "\(input.path).\(field)", message: "is required") }
            return value
        }
        let result: BinobanScenario.Input
        switch type {
        case "track":
            try only(["name", "properties", "userId", "anonymousId"])
            let hasIdentity = input.value("userId") != nil || input.value("anonymousId") != nil
            result = .track(
                name: try required(input.string("name"), "name"), properties: try input.object("properties"),
                identity: hasIdentity
                    ? BinobanEventIdentity(
                        userId: try input.string("userId"), anonymousId: try input.string("anonymousId"))
                    : nil)
        case "identify":
            try only(["userId", "traits"])
            result = .identify(userId: try input.string("userId") ?? "", traits: try input.object("traits"))
        case "screen":
            try only(["title", "properties"])
            result = .screen(
                title: try required(input.string("title"), "title"), properties: try input.object("properties"))
        case let name where name.hasPrefix("server."):
            result = .server(try serverCall(input, kind: String(name.dropFirst("server.".count))))
        case "reset":
            try only([])
            result = .reset
        case "setDeviceToken":
            try only(["token"])
            result = .setDeviceToken(try required(input.string("token"), "token"))
        case "setFlushAt":
            try only(["value"])
            result = .setFlushAt(try required(input.integer("value"), "value"))
        case "setFlushInterval":
            try only(["seconds"])
            result = .setFlushInterval(try required(input.number("seconds"), "seconds"))
        case "setEnabled":
            try only(["value"])
            result = .setEnabled(try required(input.bool("value"), "value"))
        case "flush":
            try only([])
            result = .flush
        case "flushAwait":
            try only([])
            result = .flushAwait
        case "awaitFlush":
            try only([])
            result = .awaitFlush
        case "advance":
            try only([])
            result = .advance
        case "initializeNotifications":
            try only(["askNotificationPermissionOnStart", "notificationSoundName"])
            result = .initializeNotifications(
                askPermission: try input.bool("askNotificationPermissionOnStart") ?? true,
                soundName: try input.string("notificationSoundName"))
        case "onNewToken":
            try only(["token"])
            result = .onNewToken(try required(input.string("token"), "token"))
        case "onApplicationDidReceiveRemoteNotification":
            try only(["userInfo"])
            result = .onApplicationDidReceiveRemoteNotification(
                userInfo: try required(input.value("userInfo"), "userInfo"))
        case "onWillPresentForwarded":
            try only(["userInfo"])
            result = .onWillPresentForwarded(userInfo: try required(input.value("userInfo"), "userInfo"))
        case "onDidReceiveForwarded":
            try only(["userInfo", "actionId", "dismissed"])
            result = .onDidReceiveForwarded(
                userInfo: try required(input.value("userInfo"), "userInfo"), actionId: try input.string("actionId"),
                dismissed: try input.bool("dismissed") ?? false)
        case "onNotificationOpened":
            try only(["userInfo"])
            result = .onNotificationOpened(userInfo: try required(input.value("userInfo"), "userInfo"))
        case "attachNotifications":
            try only([])
            result = .attachNotifications
        case "detachNotifications":
            try only([])
            result = .detachNotifications
        case "setInteractionHandler":
            try only(["callsSuper"])
            result = .setInteractionHandler(callsSuper: try input.bool("callsSuper") ?? true)
        case "resetInteractionHandler":
            try only([])
            result = .resetInteractionHandler
        case "drainPendingInteractions":
            try only([])
            result = .drainPendingInteractions
        case "applicationDidFinishLaunching":
            try only(["version", "build"])
            result = .applicationDidFinishLaunching(
                version: try required(input.string("version"), "version"),
                build: try required(input.string("build"), "build"))
        case "applicationWillEnterForeground":
            try only([])
            result = .applicationWillEnterForeground
        case "applicationDidEnterBackground":
            try only([])
            result = .applicationDidEnterBackground
        default:
            throw Failure(path: input.path + ".type", message: "unknown input \"\(type)\"")
        }
        return BinobanScenario.Step(at: Int64(at), input: result)
    }

    /// A `server.<call>` input: its fields, the ids and the message fields.
    private static func serverCall(_ input: Reader, kind name: String) throws(Failure) -> BinobanScenario.ServerCall {
        typealias Kind = BinobanScenario.ServerCall.Kind
        guard let kind = Kind(rawValue: name) else {
            throw Failure(
                path: input.path + ".type",
                message: "unknown server call (allowed: "
                    + Kind.allCases.map { "server.\($0.rawValue)" }.joined(separator: ", ") + ")")
        }
        let own: [String] =
            switch kind {
            case .track: ["name", "properties"]
            case .page, .screen: ["name", "category", "properties"]
            case .identify: ["traits"]
            case .group: ["groupId", "traits"]
            case .alias: ["previousId"]
            }
        let ids = kind == .alias ? ["userId"] : ["userId", "anonymousId"]
        try input.allow(
            Set(["type", "messageId", "timestamp", "context", "integrations", "awaitsOutcome"] + own + ids))
        func required(_ field: String) throws(Failure) -> String {
            guard let value = try input.string(field) else {
                throw Failure(path: "\(input.path).\(field)", message: "is required")
            }
            return value
        }
        var call = BinobanScenario.ServerCall(kind: kind)
        call.awaitsOutcome = try input.bool("awaitsOutcome") ?? false
        call.identity = BinobanEventIdentity(
            userId: try input.string("userId"), anonymousId: try input.string("anonymousId"))
        call.name = kind == .track ? try required("name") : try input.string("name")
        call.category = try input.string("category")
        call.payload = try input.object(kind == .identify || kind == .group ? "traits" : "properties")
        if kind == .group { call.groupId = try required("groupId") }
        if kind == .alias {
            call.identity = BinobanEventIdentity(userId: try required("userId"))
            call.previousId = try required("previousId")
        }
        call.fields = BinobanMessageFields(
            timestamp: try input.integer("timestamp").map { Date(timeIntervalSince1970: Double($0) / 1_000) },
            messageId: try input.string("messageId"),
            context: try input.object("context").objectValue ?? [:],
            integrations: input.value("integrations") == nil ? nil : try input.object("integrations").objectValue)
        return call
    }

    /// Reads the members of one JSON object, naming the path in every error.
    struct Reader {
        let members: [String: JSONValue]
        let path: String

        init(_ value: JSONValue, path: String) throws(Failure) {
            guard let members = value.objectValue else {
                throw Failure(path: path, message: "expected an object, found \(value)")
            }
            self.members = members
            self.path = path
        }

        private func place(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

        func allow(_ keys: Set<String>) throws(Failure) {
            if let unknown = members.keys.filter({ !keys.contains($0) }).sorted().first {
                throw Failure(
                    path: place(unknown), message: "unknown field (allowed: \(keys.sorted().joined(separator: ", ")))")
            }
        }

        func value(_ key: String) -> JSONValue? {
            guard let value = members[key], !value.isNull else { return nil }
            return value
        }

        func string(_ key: String) throws(Failure) -> String? {
            guard let value = value(key) else { return nil }
            guard let text = value.stringValue else {
                throw Failure(path: place(key), message: "expected a string, found \(value)")
            }
            return text
        }

        func integer(_ key: String) throws(Failure) -> Int? {
            guard let value = value(key) else { return nil }
            guard case .int(let number) = value else {
                throw Failure(path: place(key), message: "expected an integer, found \(value)")
            }
            return number
        }

        func number(_ key: String) throws(Failure) -> Double? {
            guard let value = value(key) else { return nil }
            guard let number = value.doubleValue else {
                throw Failure(path: place(key), message: "expected a number, found \(value)")
            }
            return number
        }

        func bool(_ key: String) throws(Failure) -> Bool? {
            guard let value = value(key) else { return nil }
            guard let flag = value.boolValue else {
                throw Failure(path: place(key), message: "expected true or false, found \(value)")
            }
            return flag
        }

        func array(_ key: String) throws(Failure) -> [JSONValue]? {
            guard let value = value(key) else { return nil }
            guard let elements = value.arrayValue else {
                throw Failure(path: place(key), message: "expected an array, found \(value)")
            }
            return elements
        }

        func object(_ key: String) throws(Failure) -> JSONValue {
            guard let value = value(key) else { return [:] }
            guard value.objectValue != nil else {
                throw Failure(path: place(key), message: "expected an object, found \(value)")
            }
            return value
        }

        func child(_ key: String) throws(Failure) -> Reader? {
            guard let value = value(key) else { return nil }
            return try Reader(value, path: place(key))
        }
    }
}
