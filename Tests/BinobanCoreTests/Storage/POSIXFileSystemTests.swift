import Foundation
import Testing

@testable import BinobanCore

@Suite("POSIX file system: directory listing")
struct POSIXFileSystemTests {
    @Test("Every name is listed whole, whatever its length (read in place, never past its record)")
    func listsNamesOfEveryLength() async throws {
        try await withTemporaryDirectory { directory in
            // Names of 1 to 255 bytes, ASCII and multi-byte. Copying the whole fixed-size d_name read past the end
            // of a short last record (the fuzzer's address sanitizer found it); this pins the in-place read.
            var expected: Set<String> = []
            for length in [1, 2, 7, 8, 9, 15, 16, 17, 100, 200, 254, 255] {
                expected.insert(String(repeating: "a", count: length))
            }
            expected.insert("é" + String(repeating: "b", count: 100))
            for name in expected {
                try Data("x".utf8).write(to: directory.appendingPathComponent(name))
            }
            let listed = try POSIXFileSystem(directory: directory.path).listNames()
            #expect(Set(listed) == expected)
            #expect(listed.count == expected.count)
        }
    }
}
