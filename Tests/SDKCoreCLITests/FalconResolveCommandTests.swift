import Foundation
import Testing

@Suite("sdkcore falcon resolve")
struct FalconResolveCommandTests {
    static let attributes = """
        {"user_details": {"email": "a+b@example.com", "first_name": "Jane"},
         "placement_details": {"layout_id": "APP_NATIVE_ESSENTIAL_0.1", "view": "ORDER_STATUS"}}
        """

    @Test func textExplainsTheLookupAndMasksTheKey() async throws {
        let output = try await SDKCoreProcess.run([
            "falcon", "resolve", "--attributes-json", Self.attributes,
            "--mapping-json", #"{"ORDER_STATUS": "p-view"}"#, "--api-key", "SECRET-KEY",
        ])
        #expect(output.status == 0, "\(output.standardError)")
        let text = output.standardOutput
        #expect(text.contains("placement id   \"p-view\""))
        #expect(text.contains("matched step   <view>"))
        #expect(text.contains("1. <layout>/<view>  no mapping entry for \"APP_NATIVE_ESSENTIAL_0.1/ORDER_STATUS\""))
        #expect(text.contains("2. <view>           matched \"ORDER_STATUS\" → \"p-view\""))
        #expect(
            text.contains(
                "https://pr.falconlabs.us/ui/webview?placement=p-view&apiKey=****"
                    + "&sessionId=00000000-0000-0000-0000-000000000000&at.email=a%2Bb%40example.com&at.firstname=Jane"))
        #expect(text.contains("placement \"ORDER_STATUS\", layoutId \"APP_NATIVE_ESSENTIAL_0.1\""))
        #expect(!text.contains("SECRET-KEY"))
        #expect(text.contains("result         ok"))
    }

    @Test func jsonOutputFromStandardInput() async throws {
        let long = String(repeating: "v", count: 130)
        let output = try await SDKCoreProcess.run(
            ["falcon", "resolve", "--attributes", "-", "--json", "--sandbox"],
            input: #"{"placement_details": {"view": "\#(long)"}}"#
        )
        #expect(output.status == 0, "\(output.standardError)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        #expect(json["placementId"] as? String == long)
        #expect(json["matchedStep"] as? String == "rawView")
        let url = try #require(json["url"] as? String)
        #expect(url.contains("apiKey=****&"))
        #expect(url.hasSuffix("&sandbox=true"))
        #expect(url.contains("placement=\(long)&"))
        let identifiers = try #require(json["diagnosticIdentifiers"] as? [String: Any])
        #expect(identifiers["placement"] as? String == String(repeating: "v", count: 128))
        #expect(identifiers["layoutId"] is NSNull)
        let lookup = try #require(json["lookup"] as? [[String: Any]])
        #expect(
            lookup.map { $0["outcome"] as? String } == [
                "absentIdentifier", "noMappingEntry", "absentIdentifier", "matched",
            ])
        #expect(json["failure"] is NSNull)
    }

    @Test func mappingFailureExitsWithTwo() async throws {
        let output = try await SDKCoreProcess.run([
            "falcon", "resolve", "--attributes-json", #"{"placement_details": {"layout_id": "L"}}"#,
            "--mapping-json", #"{"OTHER": "p"}"#, "--json",
        ])
        #expect(output.status == 2)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let failure = try #require(json["failure"] as? [String: Any])
        #expect(failure["code"] as? String == "attributeMappingFailed")
        #expect(json["placementId"] is NSNull)
        #expect((json["diagnosticIdentifiers"] as? [String: Any])?["layoutId"] as? String == "L")
    }

    @Test func urlConstructionFailureExitsWithThree() async throws {
        let output = try await SDKCoreProcess.run([
            "falcon", "resolve", "--attributes-json", #"{"placement_details": {"view": "V"}}"#, "--api-key", "  ",
        ])
        #expect(output.status == 3)
        #expect(output.standardOutput.contains("diagnostic     urlConstructionFailed: the API key is blank"))
    }

    @Test func badJSONFileNamesTheLine() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("attributes.json", "{\n  \"placement_details\": {\n    \"view\" \"V\"\n  }\n}\n")
        let output = try await SDKCoreProcess.run(["falcon", "resolve", "--attributes", file])
        #expect(output.status == 65)
        #expect(output.standardOutput.isEmpty)
        #expect(
            output.standardError.contains("are not valid JSON: line 3, column 12: expected ':' after the member name"))
    }

    @Test func inputAndUsageErrors() async throws {
        let missing = try await SDKCoreProcess.run([
            "falcon", "resolve", "--attributes", "/nonexistent/attributes.json",
        ])
        #expect(missing.status == 66)
        #expect(missing.standardError.contains("no such file"))

        let notObject = try await SDKCoreProcess.run(["falcon", "resolve", "--attributes-json", "[1]"])
        #expect(notObject.status == 65)

        let badMapping = try await SDKCoreProcess.run([
            "falcon", "resolve", "--attributes-json", "{}", "--mapping-json", #"{"V": 3}"#,
        ])
        #expect(badMapping.status == 65)
        #expect(badMapping.standardError.contains("the mapping value for \"V\" is not a string"))

        let noAttributes = try await SDKCoreProcess.run(["falcon", "resolve"])
        #expect(noAttributes.status == 64)
        let unknown = try await SDKCoreProcess.run(["falcon", "resolve", "--attributes-json", "{}", "--colour"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("unknown argument '--colour'"))
        let flagWithValue = try await SDKCoreProcess.run(["falcon", "resolve", "--attributes-json={}", "--json=yes"])
        #expect(flagWithValue.status == 64)
        #expect(flagWithValue.standardError.contains("--json takes no value"))
    }

    @Test func helpDocumentsTheExitStatuses() async throws {
        let output = try await SDKCoreProcess.run(["falcon", "resolve", "--help"])
        #expect(output.status == 0)
        for line in ["--attributes FILE", "--mapping-json JSON", "2   attributeMappingFailed", "66  an input file"] {
            #expect(output.standardOutput.contains(line))
        }
    }
}
