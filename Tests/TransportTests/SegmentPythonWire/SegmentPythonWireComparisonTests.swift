import BinobanCore
import BinobanCoreTesting
import BinobanCoreURLSession
import Foundation
import LoopbackHTTP
import Testing

/// Every call of the recorded segment-analytics-python fixture (`Tests/Fixtures/SegmentPythonWire`), made through
/// the server calls and uploaded to a 127.0.0.1 ingest, compared with what Python sent field by field.
///
/// Normalisations (the fixture's README): values are compared parsed, numbers by value; a top-level member that
/// is absent equals one that is `null`; `timestamp` is compared as an instant (milliseconds); a missing
/// `integrations` equals `{}` (both mean default routing, Decision 0212); `context.library` names each client,
/// so it is checked for its own value on each side and then set aside. Everything else must be equal, except
/// the differences listed in ``exceptions``, each with its reason.
@Suite("The server calls send what segment-analytics-python sends")
struct SegmentPythonWireComparisonTests {
    /// One difference the comparison accepts: the call, the member's path, and why it differs.
    struct Exception: Sendable {
        var call: String
        var path: String
        var reason: String
    }

    /// The differences that remain after the normalisations, each explained.
    static let exceptions: [Exception] = [
        Exception(
            call: "group-numeric-ids", path: "groupId",
            reason: "Python sends a number as given (1001); the spec's groupId is a string and "
                + "server.group(groupId:) takes a String, so a Swift host passes \"1001\""),
        Exception(
            call: "alias-numeric-ids", path: "previousId",
            reason: "Python sends a number as given (7); previousId is a string in the spec and in "
                + "server.alias(userId:previousId:), so a Swift host passes \"7\""),
    ]

    static let writeKey = "WRITE_KEY_123"
    static let wallClockMillis: Int64 = 1_785_672_000_000

    static var fixtureURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/SegmentPythonWire/segment-python-2.4.0.json")
    }

    @Test("Each of the 24 recorded calls, made through binoban.server, matches Python's message field by field")
    func everyCallMatches() async throws {
        let fixture = try JSONValue(
            parsing: Data(contentsOf: Self.fixtureURL), limits: JSONParsingLimits(maximumBytes: 4_000_000))
        let calls = try #require(fixture.objectValue?["calls"]?.arrayValue)
        // Track ×8, identify ×3, page ×4, screen ×3, group ×3, alias ×3.
        #expect(calls.count == 24)

        let server = LoopbackHTTPServer()
        let port = try server.start()
        defer { server.stop() }
        var configuration = Configuration(apiKey: Self.writeKey, sourceIdentifier: Self.writeKey)
        configuration.apiHost = "http://127.0.0.1:\(port)"
        configuration.transport = URLSessionEventTransport()
        configuration.storage = InMemoryEventStorage()
        configuration.keyValueStore = nil
        configuration.contextProvider = FixedContextProvider()
        configuration.trackApplicationLifecycleEvents = false
        configuration.wallClock = ManualClock(epochMilliseconds: Self.wallClockMillis)
        configuration.randomSource = SeededRandomSource(seed: 7)
        configuration.flushAt = 1_000
        let binoban = Binoban.create(configuration: configuration)

        for call in calls {
            try Self.make(call, on: binoban)
        }
        let result = await binoban.flushAndWait()
        #expect(result.outcome == .completed)
        #expect(result.uploadedEvents == calls.count)
        _ = await binoban.shutdown(gracePeriod: .seconds(5))

        // The envelope: the same keys as Python's, the same writeKey and Basic credentials.
        let envelope = try #require(fixture.objectValue?["envelope"]?.objectValue)
        var sent: [JSONValue] = []
        for request in server.requests {
            #expect(request.method == envelope["method"]?.stringValue)
            #expect(request.value(forHeader: "Content-Type") == "application/json")
            let pythonAuthorization = envelope["headers"]?.arrayValue?.first { $0.arrayValue?.first == "Authorization" }
            #expect(
                request.value(forHeader: "Authorization").map(JSONValue.string) == pythonAuthorization?.arrayValue?.last
            )
            let body = try #require(
                try JSONValue(parsing: request.body, limits: JSONParsingLimits(maximumBytes: 4_000_000)).objectValue)
            #expect(body.keys.sorted() == envelope["bodyKeys"]?.arrayValue?.compactMap(\.stringValue).sorted())
            #expect(body["writeKey"] == envelope["writeKey"])
            sent += body["batch"]?.arrayValue ?? []
        }
        #expect(sent.count == calls.count)

        var unexplained: [String] = []
        var usedExceptions: Set<String> = []
        for call in calls {
            let name = call.objectValue?["name"]?.stringValue ?? ""
            let python = try #require(call.objectValue?["message"]?.objectValue)
            let placeholders = Set(call.objectValue?["placeholders"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            guard let swift = Self.counterpart(of: python, generated: placeholders.contains("messageId"), in: sent)
            else {
                unexplained.append("\(name): no uploaded message with messageId \(python["messageId"] ?? .null)")
                continue
            }
            for difference in Self.differences(python: python, swift: swift, placeholders: placeholders) {
                if Self.exceptions.contains(where: { $0.call == name && $0.path == difference.path }) {
                    usedExceptions.insert("\(name) \(difference.path)")
                } else {
                    unexplained.append(
                        "\(name): \(difference.path): Python \(difference.python), Swift \(difference.swift)")
                }
            }
        }
        #expect(unexplained == [])
        // Every listed exception is still a difference: none is stale.
        #expect(usedExceptions == Set(Self.exceptions.map { "\($0.call) \($0.path)" }))
    }

    // MARK: Making the calls

    /// Makes one fixture call on `binoban`, mapping Python's keyword arguments to the server call's.
    static func make(_ call: JSONValue, on binoban: Binoban) throws {
        let object = try #require(call.objectValue)
        let method = object["method"]?.stringValue ?? ""
        let arguments = object["arguments"]?.objectValue ?? [:]
        let message = object["message"]?.objectValue ?? [:]
        let identity = BinobanEventIdentity(
            userId: idText(arguments["user_id"]), anonymousId: idText(arguments["anonymous_id"]))
        let fields = BinobanMessageFields(
            timestamp: try arguments["timestamp"].map(pythonDate),
            messageId: idText(arguments["message_id"]),
            context: arguments["context"]?.objectValue ?? [:],
            integrations: arguments["integrations"]?.objectValue)
        // A JSONValue holds no dates: a Python datetime or date inside properties or traits is passed as the text
        // Python wrote for it (the README's "values inside properties"), which is what a Swift host sends.
        let properties = withDatesAsSent(arguments["properties"] ?? [:], message["properties"])
        let traits = withDatesAsSent(arguments["traits"] ?? [:], message["traits"])
        switch method {
        case "track":
            binoban.server.track(
                name: arguments["event"]?.stringValue ?? "", properties: properties, as: identity, fields: fields)
        case "identify":
            binoban.server.identify(traits: traits, as: identity, fields: fields)
        case "page":
            binoban.server.page(
                name: arguments["name"]?.stringValue, category: arguments["category"]?.stringValue,
                properties: properties, as: identity, fields: fields)
        case "screen":
            binoban.server.screen(
                name: arguments["name"]?.stringValue, category: arguments["category"]?.stringValue,
                properties: properties, as: identity, fields: fields)
        case "group":
            binoban.server.group(
                groupId: idText(arguments["group_id"]) ?? "", traits: traits, as: identity, fields: fields)
        case "alias":
            binoban.server.alias(
                userId: idText(arguments["user_id"]) ?? "", previousId: idText(arguments["previous_id"]) ?? "",
                fields: fields)
        default:
            Issue.record("unknown method \(method)")
        }
    }

    /// An id argument as a Swift host passes it: a string as is, a number as its text (as Python sends it).
    static func idText(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        default: nil
        }
    }

    /// `argument` with each `{"$datetime": …}` / `{"$date": …}` replaced by the value Python sent in its place.
    static func withDatesAsSent(_ argument: JSONValue, _ sent: JSONValue?) -> JSONValue {
        switch argument {
        case .object(let members):
            if members.count == 1, members["$datetime"] != nil || members["$date"] != nil { return sent ?? .null }
            var resolved: [String: JSONValue] = [:]
            for (key, member) in members { resolved[key] = withDatesAsSent(member, sent?.objectValue?[key]) }
            return .object(resolved)
        case .array(let elements):
            return .array(
                elements.enumerated().map { index, element in
                    withDatesAsSent(element, sent?.arrayValue.flatMap { index < $0.count ? $0[index] : nil })
                })
        default:
            return argument
        }
    }

    /// A `{"$datetime": "2026-01-02T03:04:05.678901+02:00"}` argument as a `Date` (naive: UTC, as Python takes a
    /// past naive time).
    static func pythonDate(_ value: JSONValue) throws -> Date {
        let text = try #require(value.objectValue?["$datetime"]?.stringValue)
        let millis = try #require(instantMillis(text))
        // Microseconds matter: Python truncates them to milliseconds, as a Date's are.
        let micros = Int64(text.split(separator: ".").dropFirst().first?.prefix(6).filter(\.isNumber) ?? "")
        let subMillisecond = micros.map { Double($0 % 1_000) / 1_000_000 } ?? 0
        return Date(timeIntervalSince1970: Double(millis) / 1_000 + subMillisecond)
    }

    /// Milliseconds since 1970 of `YYYY-MM-DDTHH:MM:SS[.fraction][Z|±HH:MM]` (no offset: UTC), truncated.
    static func instantMillis(_ text: String) -> Int64? {
        let scalars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= scalars.count else { return nil }
            return Int64(String(decoding: scalars[range], as: UTF8.self))
        }
        guard scalars.count >= 19, let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var index = 19
        var millis: Int64 = 0
        if index < scalars.count, scalars[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < scalars.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(scalars[index]) {
                if digits < 3 { millis = millis * 10 + Int64(scalars[index] - UInt8(ascii: "0")) }
                digits += 1
                index += 1
            }
            for _ in digits..<max(digits, 3) { millis *= 10 }
        }
        var offsetMinutes: Int64 = 0
        if index < scalars.count, scalars[index] == UInt8(ascii: "+") || scalars[index] == UInt8(ascii: "-") {
            guard let hours = number((index + 1)..<(index + 3)), let minutes = number((index + 4)..<(index + 6))
            else { return nil }
            offsetMinutes = (hours * 60 + minutes) * (scalars[index] == UInt8(ascii: "-") ? -1 : 1)
        }
        // Days from the civil date (Howard Hinnant's algorithm).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetMinutes * 60
        return seconds * 1_000 + millis
    }

    // MARK: Comparing

    /// The uploaded message for Python's: the one with the same messageId, or the only generated one.
    static func counterpart(of python: [String: JSONValue], generated: Bool, in sent: [JSONValue]) -> [String:
        JSONValue]?
    {
        if generated {
            let candidates = sent.compactMap(\.objectValue).filter {
                isUUID4($0["messageId"]?.stringValue ?? "") && $0["event"] == python["event"]
            }
            return candidates.count == 1 ? candidates[0] : nil
        }
        return sent.compactMap(\.objectValue).first { $0["messageId"] == python["messageId"] }
    }

    static func isUUID4(_ text: String) -> Bool {
        text.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil
    }

    struct Difference {
        var path: String
        var python: String
        var swift: String
    }

    /// Python's message against Swift's, after the normalisations.
    static func differences(
        python: [String: JSONValue], swift: [String: JSONValue], placeholders: Set<String>
    ) -> [Difference] {
        var python = python
        var swift = swift
        var found: [Difference] = []
        func note(_ path: String, _ left: JSONValue?, _ right: JSONValue?) {
            found.append(Difference(path: path, python: text(left), swift: text(right)))
        }
        // Generated values: the format only (the instance's injected random source and wall clock).
        if placeholders.contains("messageId") {
            if !isUUID4(swift["messageId"]?.stringValue ?? "") {
                note("messageId", python["messageId"], swift["messageId"])
            }
            python["messageId"] = nil
            swift["messageId"] = nil
        }
        if placeholders.contains("timestamp") {
            let stamp = swift["timestamp"]?.stringValue.flatMap(instantMillis)
            if stamp != wallClockMillis { note("timestamp", python["timestamp"], swift["timestamp"]) }
        } else {
            let left = python["timestamp"]?.stringValue.flatMap(instantMillis)
            let right = swift["timestamp"]?.stringValue.flatMap(instantMillis)
            if left == nil || left != right { note("timestamp", python["timestamp"], swift["timestamp"]) }
        }
        python["timestamp"] = nil
        swift["timestamp"] = nil
        // Each client's own library.
        let pythonLibrary = python["context"]?.objectValue?["library"]
        let swiftLibrary = swift["context"]?.objectValue?["library"]
        if pythonLibrary != ["name": "analytics-python", "version": "2.4.0"] {
            note("context.library", pythonLibrary, nil)
        }
        if swiftLibrary != ["name": "binoban-core-swift", "version": .string(Binoban.version)] {
            note("context.library", nil, swiftLibrary)
        }
        python["context"] = python["context"].map(withoutLibrary)
        swift["context"] = swift["context"].map(withoutLibrary)
        // Absent == null at the top level; missing integrations == {}.
        for key in Set(python.keys).union(swift.keys) {
            var left = python[key] ?? .null
            var right = swift[key] ?? .null
            if key == "integrations" {
                if left == .null { left = [:] }
                if right == .null { right = [:] }
            }
            compare(left, right, path: key, into: &found)
        }
        return found
    }

    static func withoutLibrary(_ context: JSONValue) -> JSONValue {
        var members = context.objectValue ?? [:]
        members["library"] = nil
        return .object(members)
    }

    /// Values compared recursively; numbers by value (`2.0` == `2`).
    static func compare(_ left: JSONValue, _ right: JSONValue, path: String, into found: inout [Difference]) {
        switch (left, right) {
        case (.object(let a), .object(let b)):
            for key in Set(a.keys).union(b.keys) {
                guard let x = a[key], let y = b[key] else {
                    found.append(Difference(path: "\(path).\(key)", python: text(a[key]), swift: text(b[key])))
                    continue
                }
                compare(x, y, path: "\(path).\(key)", into: &found)
            }
        case (.array(let a), .array(let b)) where a.count == b.count:
            for (index, pair) in zip(a, b).enumerated() {
                compare(pair.0, pair.1, path: "\(path)[\(index)]", into: &found)
            }
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)):
            if Double(a) != b { found.append(Difference(path: path, python: text(left), swift: text(right))) }
        default:
            if left != right { found.append(Difference(path: path, python: text(left), swift: text(right))) }
        }
    }

    static func text(_ value: JSONValue?) -> String {
        guard let value else { return "(absent)" }
        return value.jsonString()
    }
}
