import FalconCoreTesting
import Foundation
import TestSupport
import Testing

/// A seeded, reproducible randomized model test: random executions fed random renderer, presenter, host and
/// clock inputs, checked against the invariants of spec §e and the privacy rules of §f.
///
/// Replay a failure with `FALCON_MODEL_SEED=<seed> swift test --filter FalconExecutionModelTests`.
@Suite("Execution model: randomized invariants")
struct FalconExecutionModelTests {
    static let sequenceCount = 10_000

    static var baseSeed: UInt64 {
        if let text = ProcessInfo.processInfo.environment["FALCON_MODEL_SEED"], let seed = UInt64(text) { return seed }
        return 0x00FA_1C0C_0DE5_EED5
    }

    @Test func randomSequencesKeepEveryInvariant() async {
        let base = Self.baseSeed
        let chunks = 4
        // Sequences are independent; run them in a few chunks so the sanitizer build finishes sooner.
        let results = await withTaskGroup(of: ([String], [String: Int]).self) { group in
            for chunk in 0..<chunks {
                group.addTask {
                    var reports: [String] = []
                    var seen: [String: Int] = [:]
                    for index in stride(from: chunk, to: Self.sequenceCount, by: chunks) {
                        let seed = base &+ UInt64(index)
                        let (problems, outcomes) = await Self.run(seed: seed)
                        for outcome in outcomes { seen[outcome, default: 0] += 1 }
                        if !problems.isEmpty, reports.count < 3 {
                            reports.append(
                                "seed \(seed) (base \(base), sequence \(index)): \(problems.joined(separator: "; "))"
                            )
                        }
                    }
                    return (reports, seen)
                }
            }
            var all: ([String], [String: Int]) = ([], [:])
            for await (reports, seen) in group {
                all.0 += reports
                all.1.merge(seen, uniquingKeysWith: +)
            }
            return all
        }
        for report in results.0 { Issue.record(Comment(rawValue: report)) }
        let seen = results.1
        // The generator must actually reach every outcome, or the invariants above prove little.
        for outcome in [
            "onLoad", "onUnload", "onError(placementLoadError)", "onError(initNotCalled)", "placementInteractive",
            "placementCompleted", "superseded", "diagnostic:webviewHTTPError", "diagnostic:webviewLoadTimedOut",
            "diagnostic:bridgeReportedError", "diagnostic:noPresenter", "diagnostic:webviewProvisionalNavigationFailed",
            "diagnostic:webviewNavigationFailed", "diagnostic:attributeMappingFailed",
        ] {
            #expect(seen[outcome, default: 0] >= 20, "outcome \(outcome) reached \(seen[outcome, default: 0]) times")
        }
    }

    // MARK: One sequence

    struct Execution {
        var timeline: FalconTimeline
        var layoutId: String?
    }

    static func run(seed: UInt64) async -> (problems: [String], outcomes: Set<String>) {
        var random = SplitMix64(seed: seed)
        let secrets = (0..<4).map { _ in "pii\(String(random.next() % 1_000_000_007, radix: 36))x" }
        let apiKey = "key\(String(random.next(), radix: 36))"

        let executor = ManualFalconExecutor()
        let clock = ManualFalconClock(executor: executor)
        let logs = InMemoryLogHandler()
        let delegate = RecordingDiagnosticsDelegate()
        let beacons = RecordingBeaconTransport(outcome: Bool.random(using: &random) ? .status(204) : .networkFailure)
        let overlayRenderer = LockedValue<ScriptedRenderer?>(nil)
        let presenterAvailable = random.next() % 5 != 0
        let presenter = InMemoryOverlayPresenter(
            dismissal: Bool.random(using: &random) ? .immediate : .manual,
            reportsVisibility: Bool.random(using: &random)
        ) {
            guard presenterAvailable else { return nil }
            let renderer = ScriptedRenderer(clock: clock, script: [])
            overlayRenderer.withLock { $0 = renderer }
            return renderer
        }
        let client = FalconClient(
            dependencies: FalconClientDependencies(
                executor: executor,
                clock: clock,
                idSource: SequentialFalconIDSource(),
                beaconTransport: beacons,
                logHandler: logs,
                overlayPresenter: presenter,
                loadTimeout: .seconds(15),
                platform: "model"
            )
        )
        client.diagnosticsDelegate = delegate
        let initialized = random.next() % 10 != 0
        let beaconsEnabled = random.next() % 4 != 0
        if initialized {
            client.initSdk(apiKey: apiKey, config: FalconConfig(diagnosticBeaconsEnabled: beaconsEnabled))
        }
        let isOverlay = Bool.random(using: &random)
        let surface = ScriptedRenderer(clock: clock, script: [])
        var executions: [Execution] = []

        func execute() {
            let index = executions.count + 1
            let layoutId: String? = random.next() % 4 == 0 ? nil : "L\(index)"
            let view: JSONValue = random.next() % 6 == 0 ? .null : "VIEW"
            var details: [String: JSONValue] = ["view": view]
            if let layoutId { details["layout_id"] = .string(layoutId) }
            let attributes: JSONValue = [
                "user_details": [
                    "email": .string("\(secrets[0])@example.com"), "first_name": .string(secrets[1]),
                    "last_name": .string(secrets[2]), "loyalty": .string(secrets[3]), "age": 42,
                ],
                "placement_details": .object(details),
            ]
            let timeline = FalconTimeline(clock: clock)
            if let layoutId { client.events(layoutId: layoutId, handler: timeline.eventHandler()) }
            let callbacks = timeline.callbacks()
            client.execute(
                attributes: attributes,
                placement: isOverlay ? .overlay : .inline(surface),
                onLoad: callbacks.onLoad,
                onUnload: callbacks.onUnload,
                onError: callbacks.onError,
                onShouldShowLoadingIndicator: callbacks.onShouldShowLoadingIndicator,
                onShouldHideLoadingIndicator: callbacks.onShouldHideLoadingIndicator
            )
            executions.append(Execution(timeline: timeline, layoutId: layoutId))
        }

        execute()
        let steps = 1 + Int(random.next() % 14)
        for _ in 0..<steps {
            let renderer: ScriptedRenderer? = isOverlay ? overlayRenderer.withLock { $0 } : surface
            let choice = random.next() % 24
            switch choice {
            case 0: renderer?.play(.respond(status: [200, 204, 302, 399, 400, 404, 500][Int(random.next() % 7)]))
            case 1: renderer?.play(.finish)
            case 2: renderer?.play(.failProvisional(errorCode: -1009))
            case 3: renderer?.play(.failCommitted(errorCode: -1005))
            case 4: renderer?.play(.cancelNavigation)
            case 5: renderer?.play(.loaded(height: [nil, 0, 1, 99.5, 480][Int(random.next() % 5)]))
            case 6: renderer?.play(.height([0, 0.4, 12, 250.7, -3, .infinity][Int(random.next() % 6)]))
            case 7: renderer?.play(.noFill)
            case 8: renderer?.play(.close)
            case 9: renderer?.play(.error("\(secrets[0]) \(apiKey)"))
            case 10, 11: renderer?.play(.visibility([0, 0.3, 0.5, 0.51, 0.9, 1, .nan][Int(random.next() % 7)]))
            case 12: renderer?.play(.touch)
            case 13: renderer?.play(.click("https://shop.example/\(secrets[0])"))
            case 14: renderer?.play(.terminate)
            case 15: renderer?.play(.hostTeardown)
            case 16: renderer?.play(.postJSON(#"{"type":"event","name":"# + "\"\(secrets[1])\"}"))
            case 17: presenter.dismissExternally()
            case 18: presenter.completeDismissal()
            case 19: if executions.count < 3 { execute() }
            case 20: executor.runAll()
            default: clock.advance(by: .milliseconds(Int64(random.next() % 20_000)))
            }
        }
        // Let everything settle: every timer fires, every dismissal completes, every job runs.
        clock.advance(by: .seconds(20))
        presenter.completeDismissal()
        clock.advance(by: .seconds(20))
        await client.waitForPendingBeacons()

        var problems: [String] = []
        for (index, execution) in executions.enumerated() {
            for problem in check(execution.timeline.entries, hasLayout: execution.layoutId != nil) {
                problems.append("execution \(index + 1): \(problem) in \(execution.timeline.entries)")
            }
            // Inline: an execution a later one superseded has ended; if it loaded and did not fail, it was removed
            // from the UI and got onUnload (Docs/Decisions/0111).
            if !isOverlay {
                let names = execution.timeline.entries.compactMap { entry -> String? in
                    if case .callback(let name) = entry { return name.hasPrefix("onError") ? "onError" : name }
                    return nil
                }
                if index < executions.count - 1, names.contains("onLoad"), !names.contains("onError"),
                    !names.contains("onUnload")
                {
                    problems.append("execution \(index + 1): loaded, ended without failure, and no onUnload")
                }
            }
        }
        let errorCount = executions.map { $0.timeline.entries.filter(isError).count }.reduce(0, +)
        let diagnostics = delegate.diagnostics
        if diagnostics.count != errorCount {
            problems.append("\(diagnostics.count) diagnostics for \(errorCount) onError")
        }
        let beaconBodies = beacons.bodies
        let expectedBeacons = initialized && beaconsEnabled ? diagnostics.filter { $0.code != .initNotCalled }.count : 0
        if beaconBodies.count != expectedBeacons {
            problems.append("\(beaconBodies.count) beacons, expected \(expectedBeacons)")
        }
        if beaconBodies.contains(where: { $0.contains("initNotCalled") }) { problems.append("initNotCalled beacon") }
        let texts =
            beaconBodies + logs.records.map(\.message) + diagnostics.map(\.message)
            + diagnostics.compactMap(\.placement) + diagnostics.compactMap(\.layoutId)
        for secret in secrets + [apiKey] where texts.contains(where: { $0.contains(secret) }) {
            problems.append("a user value or the API key leaked into diagnostics")
        }
        if client.activeExecutionCount > 1 { problems.append("\(client.activeExecutionCount) executions still active") }
        var outcomes = Set(diagnostics.map { "diagnostic:\($0.code.rawValue)" })
        for execution in executions {
            for case .callback(let name) in execution.timeline.entries { outcomes.insert(name) }
            for case .event(let name) in execution.timeline.entries { outcomes.insert(name) }
        }
        if executions.count > 1 && !isOverlay { outcomes.insert("superseded") }
        return (problems, outcomes)
    }

    static func isError(_ entry: FalconTimeline.Entry) -> Bool {
        if case .callback(let name) = entry { return name.hasPrefix("onError") }
        return false
    }

    /// The per-execution invariants over its ordered callbacks and events.
    static func check(_ entries: [FalconTimeline.Entry], hasLayout: Bool) -> [String] {
        var problems: [String] = []
        let names = entries.map { entry -> String in
            switch entry {
            case .callback(let name): name.hasPrefix("onError") ? "onError" : name
            case .event(let name): name.hasPrefix("placementFailure") ? "placementFailure" : name
            default: "other"
            }
        }
        func count(_ name: String) -> Int { names.filter { $0 == name }.count }
        func position(_ name: String) -> Int? { names.firstIndex(of: name) }
        if names.first != "onShouldShowLoadingIndicator" { problems.append("show is not first") }
        if count("onShouldShowLoadingIndicator") != 1 {
            problems.append("show count \(count("onShouldShowLoadingIndicator"))")
        }
        if count("onShouldHideLoadingIndicator") != 1 {
            problems.append("hide count \(count("onShouldHideLoadingIndicator"))")
        }
        for name in ["onLoad", "onError", "onUnload", "placementInteractive", "placementCompleted", "placementFailure"]
        where count(name) > 1 {
            problems.append("\(name) more than once")
        }
        let hide = position("onShouldHideLoadingIndicator") ?? Int.max
        for name in ["onLoad", "onError", "onUnload"] {
            if let at = position(name), at < hide { problems.append("\(name) before hide") }
        }
        if count("onError") == 1 && count("onUnload") == 1 { problems.append("onError and onUnload") }
        if let interactive = position("placementInteractive") {
            if (position("onLoad") ?? Int.max) > interactive { problems.append("interactive before onLoad") }
        }
        if let completed = position("placementCompleted") {
            if position("onUnload") != completed - 1 { problems.append("completed not right after onUnload") }
        }
        if let error = position("onError") {
            if hasLayout, position("placementFailure") != error + 1 {
                problems.append("failure not right after onError")
            }
            if !hasLayout, count("placementFailure") != 0 { problems.append("event without layout") }
        } else if count("placementFailure") != 0 {
            problems.append("failure without onError")
        }
        if !hasLayout, names.contains(where: { $0.hasPrefix("placement") }) { problems.append("event without layout") }
        // Nothing after a terminal outcome.
        if let error = position("onError") {
            let last = error + (hasLayout ? 1 : 0)
            if names.count - 1 > last { problems.append("entries after onError") }
        }
        if let unload = position("onUnload") {
            let last = position("placementCompleted") ?? unload
            if names.count - 1 > last { problems.append("entries after onUnload") }
        }
        return problems
    }
}
