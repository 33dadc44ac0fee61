import BinobanCoreTesting
import Foundation
import TestSupport
import Testing

@testable import BinobanCore

@Suite("Gzip request bodies")
struct GzipTests {
    /// Inputs an encoder gets wrong when a table, a boundary or a code-length rule is off.
    static func adversarialInputs() -> [(String, [UInt8])] {
        var random = SplitMix64(seed: 0x5EED_6219)
        func noise(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        let event = Array(
            #"{"type":"track","event":"purchase","properties":{"item":"shoes","price":49.99,"index":1},"#.utf8)
        var events: [UInt8] = []
        while events.count < 32_000 { events += event + Array("\(events.count)".utf8) }
        var mixed: [UInt8] = []
        for round in 0..<40 { mixed += round % 2 == 0 ? noise(1500) : [UInt8](repeating: UInt8(round), count: 900) }
        return [
            ("empty", []),
            ("one byte", [0x41]),
            ("two bytes", [0, 0xFF]),
            ("three equal bytes", [7, 7, 7]),
            ("all 256 byte values", (0...255).map { UInt8($0) }),
            (
                "all 256 byte values, 300 times",
                Array(repeating: (0...255).map { UInt8($0) }, count: 300).flatMap { $0 }
            ),
            ("incompressible 100 KB", noise(100_000)),
            ("long run of one byte", [UInt8](repeating: 0x61, count: 200_000)),
            ("long run of zeros past the window", [UInt8](repeating: 0, count: 70_000)),
            ("a 32 KB event", events),
            ("noise and runs alternating", mixed),
            (
                "period 258 and 259",
                (0..<20_000).map { UInt8(truncatingIfNeeded: $0 % 258) }
                    + (0..<20_000).map { UInt8(truncatingIfNeeded: $0 % 259) }
            ),
            (
                "matches at the window's edge",
                {
                    let block = noise(32_760)
                    return block + block + block
                }()
            ),
            ("incompressible over 65 535 bytes", noise(140_000)),
        ]
    }

    @Test("Python's gzip module decompresses every adversarial input back to itself")
    func adversarialRoundTrips() throws {
        let inputs = Self.adversarialInputs()
        let decoded = try PythonGunzip.decompress(inputs.map { Gzip.compress($0.1) })
        for (index, input) in inputs.enumerated() {
            #expect(decoded[index] == input.1, "\(input.0)")
        }
    }

    @Test("Random inputs of random sizes and alphabets round-trip through Python's gzip module")
    func randomRoundTrips() throws {
        let seed: UInt64 = 0xD1CE_0013
        var random = SplitMix64(seed: seed)
        var inputs: [[UInt8]] = []
        for _ in 0..<60 {
            let count = Int(random.next() % 50_000)
            let alphabet = UInt64(1 + random.next() % 255)
            let repeats = random.next() % 2 == 0
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count)
            while bytes.count < count {
                if repeats, bytes.count > 8, random.next() % 4 == 0 {
                    let distance = 1 + Int(random.next() % UInt64(min(bytes.count, 40_000)))
                    let length = Int(random.next() % 300)
                    for _ in 0..<length where bytes.count < count { bytes.append(bytes[bytes.count - distance]) }
                } else {
                    bytes.append(UInt8(truncatingIfNeeded: random.next() % alphabet))
                }
            }
            inputs.append(bytes)
        }
        let decoded = try PythonGunzip.decompress(inputs.map { Gzip.compress($0) })
        for (index, input) in inputs.enumerated() {
            #expect(decoded[index] == input, "input \(index) of seed \(seed)")
        }
    }

    @Test("Repetitive JSON shrinks by more than 80 percent and incompressible data grows by under 1 percent")
    func compressionRatio() {
        let inputs = Self.adversarialInputs()
        let events = inputs.first { $0.0 == "a 32 KB event" }!.1
        #expect(Gzip.compress(events).count * 5 < events.count)
        let noise = inputs.first { $0.0 == "incompressible 100 KB" }!.1
        #expect(Gzip.compress(noise).count < noise.count + noise.count / 100)
    }
}

@Suite("The test kit's gzip decoder")
struct GzipBodyTests {
    @Test("It reads what Python's gzip module writes at every level, and what the SDK writes")
    func readsZlibAndOwnOutput() throws {
        let text = Array(String(repeating: #"{"type":"track","event":"e","properties":{"i":1}},"#, count: 500).utf8)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("input")
        try Data(text).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import gzip,sys\nd=open(sys.argv[1],'rb').read()\nfor l in (0,1,6,9): open(sys.argv[1]+str(l),'wb').write(gzip.compress(d,l))",
            input.path,
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for level in [0, 1, 6, 9] {
            let member = try Data(contentsOf: directory.appendingPathComponent("input\(level)"))
            #expect(try GzipBody.decompress(member) == Data(text), "level \(level)")
        }
        #expect(try GzipBody.decompress(Data(Gzip.compress(text))) == Data(text))
    }

    @Test("A damaged member is an error, not a crash")
    func damagedMembers() {
        var member = Gzip.compress(Array("hello hello hello hello".utf8))
        member[member.count - 5] ^= 0xFF
        #expect(throws: GzipBody.DecodingError.self) { try GzipBody.decompress(Data(member)) }
        #expect(throws: GzipBody.DecodingError.self) { try GzipBody.decompress(Data(member.prefix(12))) }
        #expect(throws: GzipBody.DecodingError.self) { try GzipBody.decompress(Data("{}".utf8)) }
    }
}
