import BinobanCore
import Foundation

/// Decodes JSON text into a `JSONValue` with Foundation's decoder (an independent oracle for the writer).
enum JSONValueDecoding {
    static func decode(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }
}
