@_spi(Tooling) import FalconCore
import Foundation
import Testing

@Suite("Webview URL (spec §d)")
struct FalconWebviewURLBuilderTests {
    static let base = URL(string: "https://pr.falconlabs.us")!

    static func build(
        base: URL = base,
        apiKey: String = "KEY",
        placement: String = "p-combo",
        attributes: [FalconQueryItem] = [],
        sandbox: Bool = false,
        style: FalconStyle? = nil
    ) -> Result<URL, FalconWebviewURLBuilder.Failure> {
        FalconWebviewURLBuilder.build(
            baseURL: base,
            apiKey: apiKey,
            placementId: placement,
            sessionId: "6F1C",
            userAttributes: attributes,
            isSandbox: sandbox,
            style: style
        )
    }

    @Test func specExampleWithSandbox() throws {
        let resolved = FalconAttributeResolver.resolve(
            [
                "user_details": ["email": "a+b@example.com", "first_name": "Jane", "last_name": "Smith"],
                "placement_details": ["layout_id": "APP_NATIVE_ESSENTIAL_0.1", "view": "ORDER_STATUS"],
            ],
            mapping: FalconAttributeResolverTests.m1
        )
        let url = try Self.build(
            placement: try #require(resolved.placementId), attributes: resolved.userAttributes,
            sandbox: true
        ).get()
        #expect(
            url.absoluteString
                == "https://pr.falconlabs.us/ui/webview?placement=p-combo&apiKey=KEY&sessionId=6F1C"
                + "&at.email=a%2Bb%40example.com&at.firstname=Jane&at.lastname=Smith&sandbox=true"
        )
    }

    @Test(arguments: [
        ("https://pr.falconlabs.us", "https://pr.falconlabs.us/ui/webview"),
        ("https://pr.falconlabs.us/", "https://pr.falconlabs.us/ui/webview"),
        ("https://h.example/prefix", "https://h.example/prefix/ui/webview"),
        ("https://h.example/prefix//", "https://h.example/prefix/ui/webview"),
        ("HTTP://LocalHost:8080", "http://LocalHost:8080/ui/webview"),
        ("http://127.0.0.1:9/p/", "http://127.0.0.1:9/p/ui/webview"),
        ("http://[::1]:8080", "http://[::1]:8080/ui/webview"),
    ])
    func basePath(_ base: String, _ expected: String) throws {
        let url = try Self.build(base: try #require(URL(string: base))).get()
        #expect(url.absoluteString.hasPrefix(expected + "?placement=p-combo&apiKey=KEY&sessionId=6F1C"))
    }

    @Test(arguments: [
        "ftp://h.example", "https://h.example?x=1", "https://h.example#frag", "file:///tmp/x", "h.example",
        // Plain HTTP would send the API key in cleartext: only loopback hosts may use it (Docs/Decisions/0010).
        "http://h.example", "HTTP://pr.falconlabs.us/", "http://127.0.0.2", "http://localhost.example.com",
        "http://10.0.0.5:8080", "http://[::2]", "http://localhost@h.example",
    ])
    func invalidBaseURLFails(_ base: String) throws {
        let url = try #require(URL(string: base))
        #expect(Self.build(base: url) == .failure(.invalidBaseURL))
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func blankAPIKeyFails(_ key: String) {
        #expect(Self.build(apiKey: key) == .failure(.blankAPIKey))
    }

    @Test func apiKeyIsTrimmed() throws {
        #expect(try Self.build(apiKey: " KEY\n").get().absoluteString.contains("&apiKey=KEY&"))
    }

    @Test(arguments: [
        ("a&b=c#d+e%f", "a%26b%3Dc%23d%2Be%25f"),
        ("Jane Mary", "Jane%20Mary"),
        ("Zoë Ångström", "Zo%C3%AB%20%C3%85ngstr%C3%B6m"),
        ("🦅", "%F0%9F%A6%85"),
        ("-._~AZaz09", "-._~AZaz09"),
        ("/?:@!$'()*,;[]", "%2F%3F%3A%40%21%24%27%28%29%2A%2C%3B%5B%5D"),
    ])
    func hostileValuesAreEncoded(_ raw: String, _ encoded: String) throws {
        #expect(FalconPercentEncoder.encode(raw) == encoded)
        let url = try Self.build(attributes: [FalconQueryItem(name: "at.x y", value: raw)]).get()
        #expect(url.absoluteString.hasSuffix("&at.x%20y=\(encoded)"))
    }

    @Test func tenKilobyteValueIsKeptWhole() throws {
        let value = String(repeating: "a+ é", count: 2_500)
        let url = try Self.build(attributes: [FalconQueryItem(name: "at.big", value: value)]).get()
        let encoded = String(repeating: "a%2B%20%C3%A9", count: 2_500)
        #expect(url.absoluteString.hasSuffix("&at.big=\(encoded)"))
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        #expect(components.queryItems?.last?.value == value)
    }

    @Test func encodedQueryRoundTripsThroughFoundation() throws {
        let values = ["a+b@example.com", "x&y=z", "100%", "#tag", "Ünïcødé 🦅"]
        let items = values.enumerated().map { FalconQueryItem(name: "at.k\($0.offset)", value: $0.element) }
        let url = try Self.build(attributes: items).get()
        let decoded = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(decoded.suffix(values.count).map(\.value) == values)
    }

    @Test func styleParametersFollowSandboxInFieldOrder() throws {
        let style = FalconStyle(
            widgetBackgroundColor: .clear,
            slotBackgroundColor: .white,
            slotPadding: 12,
            acceptButtonBackgroundColor: FalconColor(red: 0, green: 0.514, blue: 0.388, alpha: 1),
            acceptButtonTextColor: .white,
            promoCodeBackgroundColor: FalconColor(red: 0.176, green: 0.655, blue: 0.518, alpha: 1),
            fontFamily: "Roboto Slab"
        )
        let url = try Self.build(sandbox: true, style: style).get()
        #expect(
            url.absoluteString.hasSuffix(
                "&sandbox=true&style.widgetBackgroundColor=%2300000000&style.slotBackgroundColor=%23FFFFFFFF"
                    + "&style.slotPadding=12&style.acceptButtonBackgroundColor=%23008363FF"
                    + "&style.acceptButtonTextColor=%23FFFFFFFF&style.promoCodeBackgroundColor=%232DA784FF"
                    + "&style.fontFamily=Roboto%20Slab"
            )
        )
    }

    @Test func colourComponentsAreClamped() {
        #expect(FalconColor(red: -1, green: 2, blue: .nan, alpha: 0.5).hexString == "#00FF0080")
    }
}

@Suite("Navigation policy (spec §d)")
struct FalconNavigationPolicyTests {
    static let placement = URL(string: "https://pr.falconlabs.us/ui/webview?placement=p")!

    /// Through the renderer's call, which the policy answers.
    static func decide(_ url: String, mainFrame: Bool = true, touch: Duration? = nil) -> FalconNavigationDecision {
        FalconNavigationDecision(
            url: URL(string: url)!,
            isMainFrame: mainFrame,
            placementURL: placement,
            sinceLastTouch: touch
        )
    }

    @Test func sameOriginIsAllowed() {
        #expect(Self.decide("https://PR.falconlabs.us/other?x=1") == .allow)
    }

    @Test func subframesOfWebAndAboutAreAllowed() {
        #expect(Self.decide("https://ads.example/frame", mainFrame: false) == .allow)
        #expect(Self.decide("about:blank", mainFrame: false) == .allow)
    }

    @Test func offOriginMainFrameOpensExternallyOnlyAfterATouch() {
        let url = URL(string: "https://shop.example/offer")!
        #expect(Self.decide(url.absoluteString) == .cancel)
        #expect(Self.decide(url.absoluteString, touch: .milliseconds(300)) == .openExternally(url))
        #expect(Self.decide(url.absoluteString, touch: .seconds(1)) == .openExternally(url))
        #expect(Self.decide(url.absoluteString, touch: .milliseconds(1_001)) == .cancel)
    }

    @Test(arguments: ["javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd", "blob:https://x/1"])
    func dangerousSchemesAreAlwaysCancelled(_ url: String) {
        #expect(Self.decide(url, touch: .zero) == .cancel)
        #expect(Self.decide(url, mainFrame: false, touch: .zero) == .cancel)
    }

    @Test func otherSchemesOpenExternallyWhenGated() {
        let url = URL(string: "itms-apps://apps.apple.com/app/id1")!
        #expect(Self.decide(url.absoluteString, touch: .milliseconds(10)) == .openExternally(url))
        #expect(Self.decide(url.absoluteString) == .cancel)
    }

    @Test func clicksOpenOnlyWebURLsWithinTheGate() {
        let web = URL(string: "https://shop.example")!
        #expect(
            FalconNavigationPolicy.decideClick(url: web, sinceLastTouch: .milliseconds(500)) == .openExternally(web))
        #expect(FalconNavigationPolicy.decideClick(url: web, sinceLastTouch: nil) == .cancel)
        let deepLink = URL(string: "myapp://x")!
        #expect(FalconNavigationPolicy.decideClick(url: deepLink, sinceLastTouch: .zero) == .cancel)
    }
}
