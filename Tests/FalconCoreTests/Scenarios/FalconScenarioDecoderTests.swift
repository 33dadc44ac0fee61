import FalconCoreTesting
import Foundation
import Testing

@Suite("FalconScenarioDecoder")
struct FalconScenarioDecoderTests {
    /// A valid scenario document with `step` as its only step and `expect` as its expectations.
    static func document(step: String, expect: String = "[]", extra: String = "") -> Data {
        Data(
            """
            {"format": 1, "core": "falcon", "name": "n", "description": "d", \(extra)
             "steps": [\(step)], "expect": \(expect)}
            """.utf8)
    }

    static func error(_ data: Data) -> FalconScenarioDecodingError? {
        do {
            _ = try FalconScenarioDecoder.decode(data)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesAFullScenario() throws {
        let data = Data(
            """
            {"format": 1, "core": "falcon", "name": "n", "description": "d",
             "config": {"sessionId": "S", "loadTimeoutMs": 500, "presenter": "unavailable", "dismissal": "manual"},
             "steps": [
               {"at": 0, "input": {"type": "initSdk", "apiKey": "K", "config": {"placementMapping": {"V": "p"},
                 "diagnosticBeaconsEnabled": false, "diagnosticsURL": "https://d.example.com/b"}}},
               {"at": 5, "input": {"type": "execute", "placement": "inline", "surface": "s",
                 "attributes": {"placement_details": {"view": "V"}}, "style": {"slotBackgroundColor": "#0A0B0C"},
                 "sandbox": true}},
               {"at": 9, "input": {"type": "navigationFailed", "surface": "s", "phase": "committed", "errorCode": -1}},
               {"at": 9, "input": {"type": "bridge", "surface": "s", "json": "{}"}}
             ],
             "expect": [{"type": "load", "surface": "s", "urlPattern": "https://*"}, {"type": "present", "at": 3}]}
            """.utf8)
        let scenario = try FalconScenarioDecoder.decode(data)
        #expect(scenario.configuration.sessionId == "S")
        #expect(scenario.configuration.loadTimeout == .milliseconds(500))
        #expect(!scenario.configuration.presenterAvailable)
        #expect(!scenario.configuration.dismissesImmediately)
        #expect(scenario.steps.map(\.at) == [0, 5, 9, 9])
        guard case .initSdk(let apiKey, let config) = scenario.steps[0].input else {
            Issue.record("expected initSdk, got \(scenario.steps[0].input)")
            return
        }
        #expect(apiKey == "K")
        #expect(config.placementMapping == ["V": "p"])
        #expect(!config.diagnosticBeaconsEnabled)
        #expect(config.diagnosticsURL?.absoluteString == "https://d.example.com/b")
        #expect(
            scenario.steps[1].input
                == .execute(
                    .init(
                        attributes: ["placement_details": ["view": "V"]],
                        placement: .inline(surface: "s"),
                        style: FalconStyle(slotBackgroundColor: FalconColor(red: 10 as UInt8, green: 11, blue: 12)),
                        isSandbox: true
                    )))
        #expect(
            scenario.steps[2].input
                == .navigationFailed(
                    surface: "s", navigationID: nil, phase: .committed, isCancelled: false, errorCode: -1))
        #expect(scenario.steps[3].input == .bridge(surface: "s", message: .json("{}")))
        #expect(scenario.expectations.map(\.type) == ["load", "present"])
        #expect(scenario.expectations[1].fields == ["at": 3])
    }

    @Test func syntaxErrorNamesTheLine() throws {
        let data = Data("{\n  \"format\": 1,\n  \"core\": \"falcon\",\n  oops\n}\n".utf8)
        let error = try #require(Self.error(data))
        #expect(error.line == 4, "\(error)")
        #expect(error.description.hasPrefix("line 4"), "\(error)")
        #expect(error.message.contains("not valid JSON"))
    }

    @Test(arguments: [
        ("{\"a\" 1}", 1, 6, "expected ':' after the member name"),
        ("[1, 2\n, 3", 2, 4, "unexpected end of file, expected ',' or ']'"),
        ("{\"a\": tru}", 1, 7, "unexpected character, expected true"),
        ("{\"a\": \"x\ny\"}", 1, 9, "control character inside a string"),
        ("{\"a\": 01}", 1, 8, "expected ',' or '}'"),
        ("{\"é\": -}", 1, 8, "invalid number"),
        ("{} {}", 1, 4, "unexpected text after the end of the document"),
    ])
    func syntaxErrorsArePositioned(text: String, line: Int, column: Int, reason: String) throws {
        let error = try #require(Self.error(Data(text.utf8)))
        #expect(error.line == line, "\(error)")
        #expect(error.column == column, "\(error)")
        #expect(error.message == "not valid JSON: \(reason)")
    }

    @Test func truncatedFileIsAnErrorNotACrash() throws {
        let error = try #require(Self.error(Data("{\"format\": 1, \"steps\": [".utf8)))
        #expect(error.message.contains("not valid JSON"), "\(error)")
    }

    @Test func wrongFieldTypeNamesThePath() throws {
        let data = Self.document(step: #"{"at": 0, "input": {"type": "navigationResponse", "status": "200"}}"#)
        let error = try #require(Self.error(data))
        #expect(error.path == "steps[0].input.status")
        #expect(error.description == "steps[0].input.status: expected an integer, found \"200\"")
    }

    @Test func misspeltFieldIsRejected() throws {
        let data = Self.document(step: #"{"at": 0, "input": {"type": "navigationResponse", "stauts": 200}}"#)
        let error = try #require(Self.error(data))
        #expect(error.path == "steps[0].input.stauts")
        #expect(error.message.hasPrefix("unknown field"))
    }

    @Test(arguments: [
        (#"{"at": 0, "input": {"type": "explode"}}"#, "steps[0].input.type"),
        (#"{"at": -1, "input": {"type": "advance"}}"#, "steps[0].at"),
        (#"{"input": {"type": "advance"}}"#, "steps[0].at"),
        (#"{"at": 0}"#, "steps[0].input"),
        (#"{"at": 0, "input": {"type": "execute"}}"#, "steps[0].input.placement"),
        (#"{"at": 0, "input": {"type": "execute", "placement": "overlay", "surface": "x"}}"#, "steps[0].input.surface"),
        (
            #"{"at": 0, "input": {"type": "execute", "placement": "inline", "style": {"fontFamily": 3}}}"#,
            "steps[0].input.style.fontFamily"
        ),
        (
            #"{"at": 0, "input": {"type": "execute", "placement": "inline", "style": {"slotBackgroundColor": "red"}}}"#,
            "steps[0].input.style.slotBackgroundColor"
        ),
        (
            #"{"at": 0, "input": {"type": "initSdk", "apiKey": "K", "config": {"placementMapping": {"V": 1}}}}"#,
            "steps[0].input.config.placementMapping.V"
        ),
        (#"{"at": 0, "input": {"type": "bridge", "name": "loaded", "json": "{}"}}"#, "steps[0].input"),
        (#"{"at": 0, "input": {"type": "navigationFailed"}}"#, "steps[0].input.phase"),
        (#""advance""#, "steps[0]"),
    ])
    func badStepNamesTheField(step: String, path: String) throws {
        let error = try #require(Self.error(Self.document(step: step)))
        #expect(error.path == path, "\(error)")
    }

    @Test(arguments: [
        (#"[{"type": "explode"}]"#, "expect[0].type"),
        (#"[{"name": "onLoad"}]"#, "expect[0].type"),
        (#"[{"type": "callback", "name": "onLoaded"}]"#, "expect[0].name"),
        (#"[{"type": "callback"}]"#, "expect[0].name"),
        (#"[{"type": "diagnostic", "code": "boom"}]"#, "expect[0].code"),
        (#"[{"type": "load", "url": "a", "urlPattern": "b"}]"#, "expect[0].urlPattern"),
        (#"[{"type": "beacon", "at": 3}]"#, "expect[0].at"),
        (#"[{"type": "setContentHeight", "height": "tall"}]"#, "expect[0].height"),
        (#"[{"type": "present", "surface": "overlay"}]"#, "expect[0].surface"),
    ])
    func badExpectationNamesTheField(expect: String, path: String) throws {
        let data = Self.document(step: #"{"at": 0, "input": {"type": "advance"}}"#, expect: expect)
        let error = try #require(Self.error(data))
        #expect(error.path == path, "\(error)")
    }

    @Test func rejectsOtherCoresFormatsAndBackwardsTime() throws {
        let binoban = Data(
            #"{"format": 1, "core": "binoban", "name": "n", "description": "d", "steps": [], "expect": []}"#.utf8)
        #expect(Self.error(binoban)?.path == "core")
        let format2 = Data(
            #"{"format": 2, "core": "falcon", "name": "n", "description": "d", "steps": [], "expect": []}"#.utf8)
        #expect(Self.error(format2)?.message.contains("unsupported format 2") == true)
        let backwards = Self.document(
            step: #"{"at": 10, "input": {"type": "advance"}}, {"at": 5, "input": {"type": "advance"}}"#)
        #expect(Self.error(backwards)?.path == "steps[1].at")
        #expect(Self.error(Data("[1, 2]".utf8))?.message == "expected an object, found an array")
        #expect(Self.error(Self.document(step: "", extra: #""extra": true,"#))?.path == "extra")
    }
}
