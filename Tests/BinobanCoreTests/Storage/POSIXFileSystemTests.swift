import Foundation
import TestSupport
import Testing

@testable import BinobanCore

@Suite("POSIX file system: listing and reading")
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

    @Test("A file is read whole up to the bound, whatever its size relative to the bound and the probe after it")
    func readsFilesOfEverySize() async throws {
        try await withTemporaryDirectory { directory in
            let files = POSIXFileSystem(directory: directory.path)
            var generator = SplitMix64(seed: 0x0F11_E512)
            for size in [0, 1, 100, 511, 512, 513, 1_024, 4_096, 65_536, 70_000, 200_000] {
                let contents = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let name = "file-\(size)"
                try Data(contents).write(to: directory.appendingPathComponent(name))
                for bound in Set([0, 1, max(0, size - 1), size, size + 1, 512, 65_536, 1_000_000]) {
                    let read = try #require(try files.readRegularFile(name, maxBytes: bound))
                    #expect(read.bytes == Array(contents.prefix(bound)), "size \(size), bound \(bound)")
                    #expect(read.fileSize == size, "size \(size), bound \(bound)")
                }
            }
            #expect(try files.readRegularFile("missing", maxBytes: 10) == nil)
        }
    }
}
