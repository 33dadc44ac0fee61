import Foundation
import SDKCoreCommon
import Testing

@Suite("SDKCoreVersion: one version, the one the changelog releases")
struct VersionTests {
    /// `CHANGELOG.md` at the package root, found relative to this file.
    static let changelog = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SDKCoreCommonTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
        .appendingPathComponent("CHANGELOG.md")

    @Test("The version is semantic: three dot-separated numbers")
    func semantic() {
        let parts = SDKCoreVersion.current.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) })
    }

    @Test("CHANGELOG.md has [Unreleased] first, then a section for the current version")
    func changelogNamesTheVersion() throws {
        let text = try String(contentsOf: Self.changelog, encoding: .utf8)
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("## [") }.map(String.init)
        #expect(headings.first == "## [Unreleased]")
        let released = try #require(headings.dropFirst().first)
        #expect(released.hasPrefix("## [\(SDKCoreVersion.current)] - "))
    }
}
