import FalconCoreTesting

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Parses JSON input for the commands, naming the line and column of a syntax error.
enum JSONParsing {
    /// Why the bytes are not JSON: `line 3, column 7: expected ',' or '}'`.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ data: Data) throws(Failure) -> JSONValue {
        do {
            return try FalconScenarioDecoder.parseJSON(data)
        } catch {
            var text = error.message
            let prefix = "not valid JSON: "
            if text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
            if let line = error.line {
                text = "line \(line)" + (error.column.map { ", column \($0)" } ?? "") + ": " + text
            }
            throw Failure(description: text)
        }
    }
}
