import FalconCore
import FalconCoreTesting
import Foundation
import Testing

/// The webview URL carries the API key in its query, so a `baseURL` over plain HTTP would send the key in
/// cleartext to every hop. It is refused, except for loopback hosts (Docs/Decisions/0010).
@Suite("Falcon cleartext baseURL")
struct FalconCleartextBaseURLTests {
    static let attributes: JSONValue = ["placement_details": ["view": "ORDER_STATUS"]]

    @Test("an http:// baseURL on a network host is refused: a warning at initSdk, no load, urlConstructionFailed")
    func plainHTTPIsRefused() throws {
        let rig = FalconTestRig()
        let config = FalconConfig(
            baseURL: try #require(URL(string: "http://staging.falconlabs.example")),
            placementMapping: ["ORDER_STATUS": "P"])
        rig.client.initSdk(apiKey: "fk_test_1", config: config)
        let warnings = rig.logs.records.filter { $0.level == .warning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.hasPrefix("baseURL is refused: it must be https://") == true)
        // The record names the line that wrote it, not the logging helper.
        #expect(warnings.first?.file == "FalconCore/FalconClient.swift")
        #expect(warnings.first?.function == "initSdk(apiKey:config:)")
        #expect(!rig.logs.records.contains { $0.message.contains("fk_test_1") })

        let renderer = rig.renderer([])
        rig.execute(Self.attributes, placement: .inline(renderer))
        rig.executor.runAll()
        #expect(!renderer.commands.contains { if case .load = $0 { return true } else { return false } })
        #expect(rig.timeline.entries.contains(.diagnostic(.urlConstructionFailed)))
    }

    @Test("http:// on a loopback host loads, without a warning", arguments: ["127.0.0.1:8080", "localhost", "[::1]:9"])
    func loopbackHTTPLoads(_ authority: String) throws {
        let rig = FalconTestRig()
        let config = FalconConfig(
            baseURL: try #require(URL(string: "http://\(authority)")), placementMapping: ["ORDER_STATUS": "P"])
        rig.client.initSdk(apiKey: "fk_test_1", config: config)
        #expect(!rig.logs.records.contains { $0.level == .warning })

        let renderer = rig.renderer([])
        rig.execute(Self.attributes, placement: .inline(renderer))
        rig.executor.runAll()
        let loaded = renderer.commands.compactMap { command -> URL? in
            if case .load(let url, _) = command { return url }
            return nil
        }
        #expect(loaded.first?.absoluteString.hasPrefix("http://\(authority)/ui/webview?placement=P&") == true)
    }

    @Test("the default and any https:// baseURL log nothing at initSdk")
    func httpsIsQuiet() throws {
        let rig = FalconTestRig()
        rig.client.initSdk(apiKey: "fk_test_1")
        rig.client.initSdk(
            apiKey: "fk_test_1", config: FalconConfig(baseURL: try #require(URL(string: "https://h.example/p"))))
        #expect(!rig.logs.records.contains { $0.level == .warning })
    }
}
