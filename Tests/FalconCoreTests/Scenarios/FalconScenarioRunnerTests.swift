import FalconCoreTesting
import Testing

@Suite("FalconScenarioRunner")
struct FalconScenarioRunnerTests {
    static let attributes: JSONValue = ["placement_details": ["layout_id": "L", "view": "V"]]
    static let url = "https://pr.falconlabs.us/ui/webview?placement=V&apiKey=KEY&sessionId=session-1"

    /// An inline placement answered with HTTP 500 at 100 ms.
    static func failingScenario(expect: [FalconScenarioExpectation]) -> FalconScenario {
        FalconScenario(
            name: "http-500",
            description: "",
            steps: [
                .init(at: 0, .initSdk(apiKey: "KEY", config: FalconConfig())),
                .init(at: 0, .events(layoutId: "L")),
                .init(at: 0, .execute(.init(attributes: attributes, placement: .inline(surface: "main")))),
                .init(at: 100, .navigationResponse(surface: "main", navigationID: nil, isMainFrame: true, status: 500)),
            ],
            expectations: expect
        )
    }

    static let correct: [FalconScenarioExpectation] = [
        .init(type: "callback", fields: ["name": "onShouldShowLoadingIndicator", "execution": 1]),
        .init(type: "load", fields: ["surface": "main", "url": .string(url), "at": 0]),
        .init(type: "diagnostic", fields: ["code": "webviewHTTPError", "placement": "V", "layoutId": "L"]),
        .init(
            type: "beacon",
            fields: [
                "url": "https://pr.falconlabs.us/sdk/diagnostics",
                "body": [
                    "code": "webviewHTTPError", "layoutId": "L", "placement": "V", "platform": "test",
                    "sdkv": "$SDK_VERSION", "ts": 1_783_512_000_100,
                ],
            ]),
        .init(type: "stop", fields: ["surface": "main", "at": 100]),
        .init(type: "teardown", fields: ["surface": "main"]),
        .init(type: "callback", fields: ["name": "onShouldHideLoadingIndicator"]),
        .init(type: "callback", fields: ["name": "onError", "error": "placementLoadError"]),
        .init(type: "event", fields: ["name": "placementFailure", "layoutId": "L", "error": "placementLoadError"]),
    ]

    @Test func correctExpectationsPass() async {
        let result = await FalconScenarioRunner.run(Self.failingScenario(expect: Self.correct))
        #expect(result.passed, "\(result.report)")
        #expect(result.mismatch == nil)
        #expect(result.summary.isEmpty)
    }

    @Test func wrongURLGivesAReadableDiff() async throws {
        var expect = Self.correct
        expect[1].fields["url"] = "https://pr.falconlabs.us/ui/webview?placement=WRONG&apiKey=KEY&sessionId=session-1"
        let result = await FalconScenarioRunner.run(Self.failingScenario(expect: expect))
        #expect(!result.passed)
        let mismatch = try #require(result.mismatch)
        #expect(mismatch.index == 1)
        #expect(
            mismatch.reason.hasPrefix("field \"url\": expected \"https://pr.falconlabs.us/ui/webview?placement=WRONG"))
        #expect(result.summary.hasPrefix("first mismatch at output #1: field \"url\""))
        #expect(result.report.contains("scenario http-500: FAIL"))
        #expect(result.report.contains("    !! #1 expected {\"type\":\"load\""))
        #expect(result.report.contains("placement=V&apiKey"))
        #expect(result.report.contains("    ok #0 {\"type\":\"callback\""))
    }

    @Test func wrongOrderIsAMismatch() async throws {
        var expect = Self.correct
        expect.swapAt(4, 5)
        let result = await FalconScenarioRunner.run(Self.failingScenario(expect: expect))
        let mismatch = try #require(result.mismatch)
        #expect(mismatch.index == 4)
        #expect(mismatch.reason == "expected a teardown output, observed a stop output")
    }

    @Test func wrongTimeAndBeaconFieldAreMismatches() async throws {
        var late = Self.correct
        late[4].fields["at"] = 99
        let lateResult = await FalconScenarioRunner.run(Self.failingScenario(expect: late))
        #expect(lateResult.mismatch?.reason == "field \"at\": expected 99, observed 100")

        var beacon = Self.correct
        beacon[3].fields = ["fields": ["code": "webviewLoadTimedOut"]]
        let beaconResult = await FalconScenarioRunner.run(Self.failingScenario(expect: beacon))
        #expect(
            beaconResult.mismatch?.reason
                == "beacon field \"code\": expected \"webviewLoadTimedOut\", observed \"webviewHTTPError\"")
    }

    @Test func missingAndExtraOutputsAreReported() async throws {
        let missing = await FalconScenarioRunner.run(
            Self.failingScenario(expect: Self.correct + [.init(type: "callback", fields: ["name": "onUnload"])]))
        #expect(missing.mismatch?.index == 9)
        #expect(missing.mismatch?.observed == nil)
        #expect(missing.report.contains("    -  #9 expected {\"type\":\"callback\",\"name\":\"onUnload\"}"))

        let extra = await FalconScenarioRunner.run(Self.failingScenario(expect: Array(Self.correct.dropLast())))
        #expect(extra.mismatch?.index == 8)
        #expect(extra.mismatch?.expected == nil)
        #expect(extra.report.contains("    +  #8 observed {\"type\":\"event\""))
    }

    @Test func aReportOnASurfaceThatNeverLoadedIsAProblem() async {
        let scenario = FalconScenario(
            name: "no-load",
            description: "",
            steps: [.init(at: 10, .visibility(surface: "ghost", fraction: 1))],
            expectations: []
        )
        let result = await FalconScenarioRunner.run(scenario)
        #expect(!result.passed)
        #expect(result.problems.count == 1)
        #expect(result.summary.hasPrefix("steps[0] (at 10 ms): no surface named \"ghost\""))
    }

    @Test func globMatching() {
        #expect(FalconScenarioMatcher.glob("https://*/ui/webview?*sessionId=*", matches: Self.url))
        #expect(FalconScenarioMatcher.glob("*", matches: ""))
        #expect(FalconScenarioMatcher.glob("a*b*c", matches: "aXbYbZc"))
        #expect(!FalconScenarioMatcher.glob("a*b", matches: "aXbY"))
        #expect(!FalconScenarioMatcher.glob("abc", matches: "abcd"))
    }

    @Test func numbersCompareByValue() {
        #expect(FalconScenarioMatcher.equal(240, 240.0))
        #expect(FalconScenarioMatcher.equal(["h": [1, 2.5]], ["h": [1.0, 2.5]]))
        #expect(!FalconScenarioMatcher.equal(["h": 1], ["h": 1, "x": 2]))
        #expect(!FalconScenarioMatcher.equal("1", 1))
    }
}
