import BinobanCoreTesting
import Foundation
import Testing

@Suite("Binoban scenario decoder and diff")
struct BinobanScenarioDecoderTests {
    private func decodeError(_ text: String) -> BinobanScenarioDecodingError? {
        do {
            _ = try BinobanScenarioDecoder.decode(Data(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    private let minimal = #"{"format": 1, "core": "binoban", "name": "n", "steps": [], "expect": []}"#

    @Test func aMinimalDocumentDecodesWithDefaults() throws {
        let scenario = try BinobanScenarioDecoder.decode(Data(minimal.utf8))
        #expect(scenario.name == "n")
        #expect(scenario.config.flushAt == 20)
        #expect(scenario.config.apiHost == "api.binoban.io")
    }

    @Test func syntaxErrorsSayTheJSONIsInvalid() {
        let error = decodeError(#"{"format": 1, "core": "binoban",,}"#)
        #expect(error?.message.hasPrefix("not valid JSON") == true, "\(String(describing: error))")
    }

    @Test func syntaxErrorsNameTheLineAndColumn() {
        let error = decodeError("{\n  \"format\": 1,\n  \"core\" \"binoban\"\n}")
        #expect(error?.line == 3, "\(String(describing: error))")
        #expect(error?.column != nil)
    }

    @Test func anUnknownFieldIsNamedWithItsPath() {
        let text = #"""
            {"format": 1, "core": "binoban", "name": "n", "expect": [],
             "steps": [{"at": 0, "input": {"type": "track", "name": "a"}},
                       {"at": 5, "input": {"type": "track", "nmae": "b"}}]}
            """#
        #expect(decodeError(text)?.path == "steps[1].input.nmae")
    }

    @Test func aWrongTypeIsNamedWithItsPath() {
        let text =
            #"{"format": 1, "core": "binoban", "name": "n", "config": {"flushAt": "3"}, "steps": [], "expect": []}"#
        let error = decodeError(text)
        #expect(error?.path == "config.flushAt")
        #expect(error?.message == "expected an integer, found \"3\"")
    }

    @Test func stepsMustNotGoBackInTime() {
        let text = #"""
            {"format": 1, "core": "binoban", "name": "n", "expect": [],
             "steps": [{"at": 10, "input": {"type": "advance"}}, {"at": 5, "input": {"type": "advance"}}]}
            """#
        #expect(decodeError(text)?.path == "steps[1].at")
    }

    @Test func unknownInputsAndOutputsAreRefused() {
        let input =
            #"{"format": 1, "core": "binoban", "name": "n", "expect": [], "steps": [{"at": 0, "input": {"type": "jump"}}]}"#
        #expect(decodeError(input)?.path == "steps[0].input.type")
        let output = #"{"format": 1, "core": "binoban", "name": "n", "steps": [], "expect": [{"type": "beacon"}]}"#
        #expect(decodeError(output)?.path == "expect[0].type")
    }

    @Test func anotherCoreOrFormatIsRefused() {
        #expect(
            decodeError(#"{"format": 2, "core": "binoban", "name": "n", "steps": [], "expect": []}"#)?.path == "format")
        #expect(
            decodeError(#"{"format": 1, "core": "falcon", "name": "n", "steps": [], "expect": []}"#)?.path == "core")
    }

    @Test func anExtraOutputFailsTheScenario() {
        let mismatch = BinobanScenarioMatcher.firstMismatch(expected: [], observed: [["type": "error"]])
        #expect(mismatch?.description == "first mismatch at output #1: extra output")
    }

    @Test func nullMeansAbsentAndNumbersCompareByValue() {
        #expect(BinobanScenarioMatcher.difference(expected: ["userId": nil], observed: [:], path: "") == nil)
        #expect(
            BinobanScenarioMatcher.difference(expected: ["userId": nil], observed: ["userId": "u"], path: "") != nil)
        #expect(BinobanScenarioMatcher.difference(expected: ["n": 240], observed: ["n": 240.0], path: "") == nil)
        #expect(BinobanScenarioMatcher.difference(expected: ["a": [1]], observed: ["a": [1, 2]], path: "") != nil)
    }

    @Test func notificationSettingsDecode() throws {
        let text = #"""
            {"format": 1, "core": "binoban", "name": "n", "steps": [], "expect": [],
             "config": {"notifications": {"attached": false, "display": {"failed": "denied"}, "permission": "denied",
                                          "replayCapacity": 2, "deliveredMemory": 3, "pendingEventCapacity": 4}}}
            """#
        let settings = try BinobanScenarioDecoder.decode(Data(text.utf8)).config.notifications
        #expect(!settings.attached)
        #expect(settings.display == BinobanScenario.DisplayAnswer.failed(reason: "denied"))
        #expect(settings.permission == NotificationPermissionResult.Status.denied)
        #expect(
            [settings.replayCapacity, settings.deliveredMemory, settings.pendingEventCapacity] == [Int]([2, 3, 4]))
        let defaults = try BinobanScenarioDecoder.decode(Data(minimal.utf8)).config.notifications
        #expect(defaults.attached)
        #expect(defaults.display == BinobanScenario.DisplayAnswer.displayed)
        #expect(defaults.permission == NotificationPermissionResult.Status.granted)
    }

    @Test func badNotificationSettingsAreNamedWithTheirPath() {
        func config(_ notifications: String) -> String {
            #"{"format": 1, "core": "binoban", "name": "n", "steps": [], "expect": [], "config": {"notifications": "#
                + notifications + "}}"
        }
        #expect(decodeError(config(#"{"display": "shown"}"#))?.path == "config.notifications.display")
        #expect(decodeError(config(#"{"display": {"failed": 1}}"#))?.path == "config.notifications.display")
        #expect(decodeError(config(#"{"permission": "maybe"}"#))?.path == "config.notifications.permission")
        #expect(decodeError(config(#"{"replayCapacity": -1}"#))?.path == "config.notifications.replayCapacity")
        #expect(decodeError(config(#"{"presenter": {}}"#))?.path == "config.notifications.presenter")
    }

    @Test func notificationInputsDecode() throws {
        let text = #"""
            {"format": 1, "core": "binoban", "name": "n", "expect": [], "steps": [
              {"at": 0, "input": {"type": "initializeNotifications"}},
              {"at": 0, "input": {"type": "onDidReceiveForwarded", "userInfo": {"source": "binoban"}, "actionId": "yes"}},
              {"at": 0, "input": {"type": "setInteractionHandler"}},
              {"at": 0, "input": {"type": "drainPendingInteractions"}}]}
            """#
        let inputs = try BinobanScenarioDecoder.decode(Data(text.utf8)).steps.map(\.input)
        #expect(
            inputs == [
                .initializeNotifications(askPermission: true, soundName: nil),
                .onDidReceiveForwarded(userInfo: ["source": "binoban"], actionId: "yes", dismissed: false),
                .setInteractionHandler(callsSuper: true), .drainPendingInteractions,
            ])
    }

    @Test func aNotificationInputWithoutUserInfoIsRefused() {
        let text =
            #"{"format": 1, "core": "binoban", "name": "n", "expect": [], "steps": [{"at": 0, "input": {"type": "onWillPresentForwarded"}}]}"#
        let error = decodeError(text)
        #expect(error?.path == "steps[0].input.userInfo")
        #expect(error?.message == "is required")
    }
}
