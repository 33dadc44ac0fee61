import Testing

@testable import BinobanCore

@Suite("Lifecycle: the decision machine")
struct ApplicationLifecycleMachineTests {
    typealias Action = ApplicationLifecycleMachine.Action

    private static func tracked(_ actions: [Action]) -> [String] {
        actions.compactMap { action in
            if case .track(let name, _) = action { return name }
            return nil
        }
    }

    private static func properties(of name: String, in actions: [Action]) -> JSONValue? {
        for case .track(let tracked, let properties) in actions where tracked == name { return properties }
        return nil
    }

    @Test("First launch: record, Installed, Opened (from_background false) with version and build")
    func firstLaunch() {
        var machine = ApplicationLifecycleMachine(tracksEvents: true, stored: nil)
        let actions = machine.handle(.didFinishLaunching(version: "1.0", build: "10"))
        #expect(
            actions == [
                .record(ApplicationRelease(version: "1.0", build: "10")),
                .track(name: "Application Installed", properties: ["version": "1.0", "build": "10"]),
                .track(
                    name: "Application Opened",
                    properties: ["from_background": false, "version": "1.0", "build": "10"]),
            ])
    }

    @Test("A changed build gives Updated with the previous values; a changed version alone only records")
    func updates() {
        var updated = ApplicationLifecycleMachine(
            tracksEvents: true, stored: ApplicationRelease(version: "1.0", build: "10"))
        let actions = updated.handle(.didFinishLaunching(version: "1.1", build: "11"))
        #expect(actions.first == .record(ApplicationRelease(version: "1.1", build: "11")))
        #expect(Self.tracked(actions) == ["Application Updated", "Application Opened"])
        #expect(
            Self.properties(of: "Application Updated", in: actions)
                == ["version": "1.1", "build": "11", "previous_version": "1.0", "previous_build": "10"])

        var sameBuild = ApplicationLifecycleMachine(
            tracksEvents: true, stored: ApplicationRelease(version: "1.0", build: "10"))
        let relabelled = sameBuild.handle(.didFinishLaunching(version: "1.0.1", build: "10"))
        #expect(relabelled.first == .record(ApplicationRelease(version: "1.0.1", build: "10")))
        #expect(Self.tracked(relabelled) == ["Application Opened"])

        var unchanged = ApplicationLifecycleMachine(
            tracksEvents: true, stored: ApplicationRelease(version: "1.0", build: "10"))
        let same = unchanged.handle(.didFinishLaunching(version: " 1.0", build: "10\n"))
        #expect(same.count == 1, "surrounding whitespace is not a new release: \(same)")
        #expect(Self.tracked(same) == ["Application Opened"])
    }

    @Test("Only the first launch of an instance counts")
    func duplicateLaunch() {
        var machine = ApplicationLifecycleMachine(tracksEvents: true, stored: nil)
        _ = machine.handle(.didFinishLaunching(version: "1.0", build: "10"))
        #expect(machine.handle(.didFinishLaunching(version: "1.0", build: "10")) == [])
        #expect(machine.handle(.didFinishLaunching(version: "2.0", build: "20")) == [])
        #expect(machine.stored == ApplicationRelease(version: "1.0", build: "10"))
    }

    @Test("Background: Backgrounded once, flush every time; foreground: Opened only after a background")
    func backgroundAndForeground() {
        var machine = ApplicationLifecycleMachine(tracksEvents: true, stored: nil)
        _ = machine.handle(.didFinishLaunching(version: "1.0", build: "10"))
        #expect(machine.handle(.willEnterForeground) == [], "no background before it")
        #expect(
            machine.handle(.didEnterBackground) == [
                .track(name: "Application Backgrounded", properties: [:]), .flush,
            ])
        #expect(machine.handle(.didEnterBackground) == [.flush], "a duplicate background only flushes")
        #expect(
            machine.handle(.willEnterForeground) == [
                .track(
                    name: "Application Opened", properties: ["from_background": true, "version": "1.0", "build": "10"])
            ])
        #expect(machine.handle(.willEnterForeground) == [])
    }

    @Test("Background before any launch: Backgrounded, and the later Opened carries no version or build")
    func backgroundBeforeLaunch() {
        var machine = ApplicationLifecycleMachine(tracksEvents: true, stored: nil)
        #expect(Self.tracked(machine.handle(.didEnterBackground)) == ["Application Backgrounded"])
        #expect(
            machine.handle(.willEnterForeground) == [
                .track(name: "Application Opened", properties: ["from_background": true])
            ])
        #expect(
            Self.tracked(machine.handle(.didFinishLaunching(version: "1.0", build: "10")))
                == ["Application Installed", "Application Opened"])
    }

    @Test("With tracking off: no events, but the release is recorded and background still flushes")
    func trackingOff() {
        var machine = ApplicationLifecycleMachine(tracksEvents: false, stored: nil)
        #expect(
            machine.handle(.didFinishLaunching(version: "1.0", build: "10")) == [
                .record(ApplicationRelease(version: "1.0", build: "10"))
            ])
        #expect(machine.handle(.didEnterBackground) == [.flush])
        #expect(machine.handle(.willEnterForeground) == [])
        #expect(machine.handle(.didEnterBackground) == [.flush])
    }

    @Test("A blank version or build is reported and used as an empty string")
    func blankValues() {
        var machine = ApplicationLifecycleMachine(tracksEvents: true, stored: nil)
        let actions = machine.handle(.didFinishLaunching(version: "  ", build: ""))
        guard case .reportInput(let message) = actions.first else {
            Issue.record("expected a report first, got \(actions)")
            return
        }
        #expect(message.contains("version and build"))
        #expect(actions.contains(.record(ApplicationRelease(version: "", build: ""))))
        #expect(Self.properties(of: "Application Installed", in: actions) == ["version": "", "build": ""])

        var again = ApplicationLifecycleMachine(tracksEvents: true, stored: ApplicationRelease(version: "", build: ""))
        let next = again.handle(.didFinishLaunching(version: "", build: ""))
        #expect(Self.tracked(next) == ["Application Opened"], "a stored empty build is not a first run")
    }
}
