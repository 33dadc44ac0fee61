#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Reads a Falcon scenario file (format 1) into a ``FalconScenario``.
///
/// Every problem becomes a ``FalconScenarioDecodingError`` naming the line and column (JSON syntax) or the
/// field path (`steps[3].input.status: expected an integer, found "200"`); unknown fields are errors, so a
/// misspelt key cannot silently weaken a scenario. Nothing here traps on bad input.
public enum FalconScenarioDecoder: Sendable {
    /// Parses `data` as JSON and decodes the scenario.
    public static func decode(_ data: Data) throws(FalconScenarioDecodingError) -> FalconScenario {
        try decode(parseJSON(data))
    }

    /// Parses `data` as JSON, reporting the line and column of a syntax error when the parser gives them.
    public static func parseJSON(_ data: Data) throws(FalconScenarioDecodingError) -> JSONValue {
        do {
            return try JSONValue(parsing: data, limits: JSONParsingLimits(maximumBytes: 16 << 20))
        } catch {
            if let syntax = JSONSyntaxLocator.firstError(in: Array(data)) {
                try Self.fail(line: syntax.line, column: syntax.column, syntax.reason)
            }
            try Self.fail(line: nil, column: nil, Self.describe(error))
        }
    }

    /// Decodes an already parsed scenario document.
    public static func decode(_ document: JSONValue) throws(FalconScenarioDecodingError) -> FalconScenario {
        var root = try ScenarioObjectReader(document, path: "")
        guard let format = try root.integer("format") else {
            throw FalconScenarioDecodingError(path: "format", message: "is required (the format version, 1)")
        }
        guard format == FalconScenario.formatVersion else {
            throw FalconScenarioDecodingError(
                path: "format", message: "unsupported format \(format); this kit reads format 1")
        }
        let core = try root.requiredString("core")
        guard core == FalconScenario.core else {
            throw FalconScenarioDecodingError(path: "core", message: "expected \"falcon\", found \"\(core)\"")
        }
        let name = try root.requiredString("name")
        let description = try root.requiredString("description")
        let configuration = try root.value("config").map { value throws(FalconScenarioDecodingError) in
            try decodeConfiguration(value, path: "config")
        }
        let stepValues = try array(root.required("steps"), path: "steps")
        var steps: [FalconScenario.Step] = []
        var previous: Int64 = 0
        for (index, value) in stepValues.enumerated() {
            let step = try decodeStep(value, path: "steps[\(index)]")
            guard step.at >= previous else {
                throw FalconScenarioDecodingError(
                    path: "steps[\(index)].at",
                    message: "time goes backwards (\(step.at) ms after \(previous) ms); steps must be in time order"
                )
            }
            previous = step.at
            steps.append(step)
        }
        let expectValues = try array(root.required("expect"), path: "expect")
        var expectations: [FalconScenarioExpectation] = []
        for (index, value) in expectValues.enumerated() {
            expectations.append(try FalconScenarioExpectationDecoder.decode(value, path: "expect[\(index)]"))
        }
        try root.rejectUnknownKeys()
        return FalconScenario(
            name: name,
            description: description,
            configuration: configuration ?? FalconScenario.Configuration(),
            steps: steps,
            expectations: expectations
        )
    }

    // MARK: Configuration

    static func decodeConfiguration(
        _ value: JSONValue, path: String
    ) throws(FalconScenarioDecodingError) -> FalconScenario.Configuration {
        var reader = try ScenarioObjectReader(value, path: path)
        var configuration = FalconScenario.Configuration()
        configuration.sessionId = try reader.string("sessionId")
        if let prefix = try reader.string("sessionIdPrefix") { configuration.sessionIdPrefix = prefix }
        if let timeout = try reader.integer("loadTimeoutMs") {
            guard timeout >= 0 else {
                throw FalconScenarioDecodingError(path: reader.child("loadTimeoutMs"), message: "must not be negative")
            }
            configuration.loadTimeout = .milliseconds(timeout)
        }
        if let platform = try reader.string("platform") { configuration.platform = platform }
        if let presenter = try reader.oneOf("presenter", ["available", "unavailable"]) {
            configuration.presenterAvailable = presenter == "available"
        }
        if let dismissal = try reader.oneOf("dismissal", ["immediate", "manual"]) {
            configuration.dismissesImmediately = dismissal == "immediate"
        }
        configuration.overlayVisibility = try reader.number("overlayVisibility")
        if let start = try reader.integer("wallClockStartMs") {
            configuration.wallClockStartMilliseconds = Int64(start)
        }
        try reader.rejectUnknownKeys()
        return configuration
    }

    // MARK: Steps

    static func decodeStep(_ value: JSONValue, path: String) throws(FalconScenarioDecodingError) -> FalconScenario.Step
    {
        var reader = try ScenarioObjectReader(value, path: path)
        guard let at = try reader.integer("at") else {
            throw FalconScenarioDecodingError(path: reader.child("at"), message: "is required (virtual milliseconds)")
        }
        guard at >= 0 else {
            throw FalconScenarioDecodingError(path: reader.child("at"), message: "must not be negative")
        }
        let input = try decodeInput(reader.required("input"), path: reader.child("input"))
        try reader.rejectUnknownKeys()
        return FalconScenario.Step(at: Int64(at), input)
    }

    static let inputTypes = [
        "initSdk", "execute", "navigationResponse", "navigationFinished", "navigationFailed", "bridge", "visibility",
        "touch", "terminate", "hostTeardown", "completeDismissal", "dismissExternally", "presenterAvailability",
        "events",
        "removeEventsHandler", "advance",
    ]

    static func decodeInput(_ value: JSONValue, path: String) throws(FalconScenarioDecodingError)
        -> FalconScenario.Input
    {
        var reader = try ScenarioObjectReader(value, path: path)
        guard let type = try reader.oneOf("type", inputTypes) else {
            throw FalconScenarioDecodingError(path: reader.child("type"), message: "is required")
        }
        let input: FalconScenario.Input
        switch type {
        case "initSdk":
            let apiKey = try reader.requiredString("apiKey")
            let config = try reader.value("config").map { value throws(FalconScenarioDecodingError) in
                try decodeFalconConfig(value, path: reader.child("config"))
            }
            input = .initSdk(apiKey: apiKey, config: config ?? FalconConfig())
        case "execute":
            input = .execute(try decodeExecute(&reader))
        case "navigationResponse":
            input = .navigationResponse(
                surface: try surface(&reader),
                navigationID: try reader.integer("navigationId"),
                isMainFrame: try reader.bool("mainFrame") ?? true,
                status: try reader.integer("status")
            )
        case "navigationFinished":
            input = .navigationFinished(surface: try surface(&reader), navigationID: try reader.integer("navigationId"))
        case "navigationFailed":
            let phase = try reader.oneOf("phase", ["provisional", "committed"])
            guard let phase else {
                throw FalconScenarioDecodingError(path: reader.child("phase"), message: "is required")
            }
            input = .navigationFailed(
                surface: try surface(&reader),
                navigationID: try reader.integer("navigationId"),
                phase: phase == "provisional" ? .provisional : .committed,
                isCancelled: try reader.bool("cancelled") ?? false,
                errorCode: try reader.integer("errorCode")
            )
        case "bridge":
            input = .bridge(surface: try surface(&reader), message: try decodeBridge(&reader))
        case "visibility":
            guard let fraction = try reader.number("fraction") else {
                throw FalconScenarioDecodingError(path: reader.child("fraction"), message: "is required")
            }
            input = .visibility(surface: try surface(&reader), fraction: fraction)
        case "touch": input = .touch(surface: try surface(&reader))
        case "terminate": input = .terminate(surface: try surface(&reader))
        case "hostTeardown": input = .hostTeardown(surface: try surface(&reader))
        case "completeDismissal": input = .completeDismissal
        case "dismissExternally": input = .dismissExternally
        case "presenterAvailability":
            guard let available = try reader.bool("available") else {
                throw FalconScenarioDecodingError(path: reader.child("available"), message: "is required")
            }
            input = .presenterAvailability(available)
        case "events": input = .events(layoutId: try reader.requiredString("layoutId"))
        case "removeEventsHandler": input = .removeEventsHandler(layoutId: try reader.requiredString("layoutId"))
        default: input = .advance
        }
        try reader.rejectUnknownKeys()
        return input
    }

    private static func surface(_ reader: inout ScenarioObjectReader) throws(FalconScenarioDecodingError) -> String {
        try reader.string("surface") ?? "main"
    }

    private static func decodeExecute(
        _ reader: inout ScenarioObjectReader
    ) throws(FalconScenarioDecodingError) -> FalconScenario.Execute {
        let attributes = reader.value("attributes") ?? .object([:])
        let kind = try reader.oneOf("placement", ["inline", "overlay"])
        guard let kind else {
            throw FalconScenarioDecodingError(
                path: reader.child("placement"), message: "is required (inline or overlay)")
        }
        let placement: FalconScenario.Placement
        if kind == "inline" {
            placement = .inline(surface: try reader.string("surface") ?? "main")
        } else {
            if reader.members["surface"] != nil {
                throw FalconScenarioDecodingError(
                    path: reader.child("surface"),
                    message: "an overlay has no inline surface; its renderer is always named \"overlay\""
                )
            }
            placement = .overlay
        }
        let style = try reader.value("style").map { value throws(FalconScenarioDecodingError) in
            try decodeStyle(value, path: reader.child("style"))
        }
        return FalconScenario.Execute(
            attributes: attributes,
            placement: placement,
            style: style,
            isSandbox: try reader.bool("sandbox") ?? false
        )
    }

    private static func decodeBridge(
        _ reader: inout ScenarioObjectReader
    ) throws(FalconScenarioDecodingError) -> FalconScenario.BridgeMessage {
        let name = try reader.string("name")
        let data = reader.value("data")
        let message = reader.value("message")
        let json = try reader.string("json")
        switch (name, message, json) {
        case (let name?, nil, nil):
            return .value(["type": "event", "name": .string(name), "data": data ?? .object([:])])
        case (nil, let message?, nil) where data == nil:
            return .value(message)
        case (nil, nil, let json?) where data == nil:
            return .json(json)
        default:
            throw FalconScenarioDecodingError(
                path: reader.path,
                message:
                    "a bridge input needs exactly one of \"name\" (with optional \"data\"), \"message\" or \"json\""
            )
        }
    }

    static func decodeFalconConfig(_ value: JSONValue, path: String) throws(FalconScenarioDecodingError) -> FalconConfig
    {
        var reader = try ScenarioObjectReader(value, path: path)
        var config = FalconConfig()
        if let text = try reader.string("baseURL") {
            guard let url = URL(string: text) else {
                throw FalconScenarioDecodingError(path: reader.child("baseURL"), message: "is not a URL")
            }
            config.baseURL = url
        }
        if let mapping = reader.value("placementMapping") {
            let mappingPath = reader.child("placementMapping")
            guard let members = mapping.objectValue else {
                throw FalconScenarioDecodingError(path: mappingPath, message: "expected an object of strings")
            }
            var result: [String: String] = [:]
            for (key, entry) in members {
                guard let text = entry.stringValue else {
                    throw FalconScenarioDecodingError(
                        path: "\(mappingPath).\(key)",
                        message: "expected a string, found \(ScenarioObjectReader.kind(entry))")
                }
                result[key] = text
            }
            config.placementMapping = result
        }
        if let enabled = try reader.bool("diagnosticBeaconsEnabled") { config.diagnosticBeaconsEnabled = enabled }
        if let text = try reader.string("diagnosticsURL") {
            guard let url = URL(string: text) else {
                throw FalconScenarioDecodingError(path: reader.child("diagnosticsURL"), message: "is not a URL")
            }
            config.diagnosticsURL = url
        }
        try reader.rejectUnknownKeys()
        return config
    }

    static func decodeStyle(_ value: JSONValue, path: String) throws(FalconScenarioDecodingError) -> FalconStyle {
        var reader = try ScenarioObjectReader(value, path: path)
        func color(_ key: String) throws(FalconScenarioDecodingError) -> FalconColor? {
            guard let text = try reader.string(key) else { return nil }
            guard let color = parseColor(text) else {
                throw FalconScenarioDecodingError(
                    path: reader.child(key),
                    message: "expected a colour \"#RRGGBB\" or \"#RRGGBBAA\", found \"\(text)\"")
            }
            return color
        }
        let style = FalconStyle(
            widgetBackgroundColor: try color("widgetBackgroundColor"),
            slotBackgroundColor: try color("slotBackgroundColor"),
            slotPadding: try reader.integer("slotPadding"),
            acceptButtonBackgroundColor: try color("acceptButtonBackgroundColor"),
            acceptButtonTextColor: try color("acceptButtonTextColor"),
            promoCodeBackgroundColor: try color("promoCodeBackgroundColor"),
            fontFamily: try reader.string("fontFamily")
        )
        try reader.rejectUnknownKeys()
        return style
    }

    /// `#RRGGBB` or `#RRGGBBAA` (hex digits in either case).
    static func parseColor(_ text: String) -> FalconColor? {
        let digits = Array(text.utf8)
        guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else { return nil }
        var channels: [UInt8] = []
        var index = 1
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            channels.append(high << 4 | low)
            index += 2
        }
        return FalconColor(
            red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 255)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: Helpers

    static func array(_ value: JSONValue, path: String) throws(FalconScenarioDecodingError) -> [JSONValue] {
        guard let elements = value.arrayValue else {
            throw FalconScenarioDecodingError(
                path: path, message: "expected an array, found \(ScenarioObjectReader.kind(value))")
        }
        return elements
    }

    private static func fail(line: Int?, column: Int?, _ reason: String) throws(FalconScenarioDecodingError) -> Never {
        throw FalconScenarioDecodingError(
            path: "", message: "not valid JSON: \(reason)", line: line, column: column)
    }

    /// The most specific text of a JSON parser error.
    private static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .dataCorrupted(let context):
            if let underlying = context.underlyingError { return "\(underlying)" }
            return context.debugDescription
        default:
            return "\(decoding)"
        }
    }

}
