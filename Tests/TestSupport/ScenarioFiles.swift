import Foundation

/// The conformance scenario files of one core under `Tests/Scenarios/<Core>/`, found relative to this source
/// file so that every test target reads the same directory.
///
/// ```swift
/// for name in ScenarioFiles.binoban.names { … ScenarioFiles.binoban.url(of: name) … }
/// ```
package struct ScenarioFiles: Sendable {
    /// The Falcon scenarios (`Tests/Scenarios/Falcon`).
    package static let falcon = ScenarioFiles(folder: "Falcon")
    /// The Binoban scenarios (`Tests/Scenarios/Binoban`).
    package static let binoban = ScenarioFiles(folder: "Binoban")

    /// The directory holding the files.
    package let directory: URL

    private init(folder: String) {
        directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // TestSupport
            .deletingLastPathComponent()  // Tests
            .appendingPathComponent("Scenarios")
            .appendingPathComponent(folder)
    }

    /// The `.json` file names, sorted; empty when the directory cannot be read (the count tests then fail).
    package var names: [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return entries.filter { $0.hasSuffix(".json") }.sorted()
    }

    /// The full location of the file `name`.
    package func url(of name: String) -> URL {
        directory.appendingPathComponent(name)
    }
}
