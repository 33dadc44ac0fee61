import BinobanCore
import BinobanCoreTesting
import Foundation
import FuzzSupport
import SDKCoreCommon

// Gzip upload bodies through public entry points only:
// - the raw input as a gzip member for the test kit's decoder, which must throw or succeed, never trap;
// - the SDK's DEFLATE encoder: events whose property strings are built from the input (chunks, long runs, repeats
//   at distances near the 32 KiB window) go out with compressesUploads, and every body must decompress to exactly
//   the events tracked.

/// Up to four property strings built from the input: a raw chunk, a run of one byte, or a chunk repeated. Each
/// is at most 5 000 bytes before escaping, so that even escaped (six bytes per control character) an event stays
/// under the 32 000-byte limit and is uploaded, not dropped.
private func strings(_ input: inout FuzzInput) -> [String] {
    var result: [String] = []
    while !input.isAtEnd, result.count < 4 {
        var bytes: [UInt8]
        switch input.choice(3) {
        case 0:
            bytes = input.chunk(limit: 5000)
        case 1:
            bytes = [UInt8](repeating: input.byte(), count: Int(input.uint16()) % 5001)
        default:
            let chunk = input.chunk(limit: 512)
            bytes = Array(Array(repeating: chunk, count: 1 + input.choice(64)).joined().prefix(5000))
        }
        // Invalid UTF-8 becomes U+FFFD, so the string's UTF-8 may be up to three times longer: trim it back.
        var text = String(decoding: bytes, as: UTF8.self)
        while text.utf8.count > 5000 { text.removeLast() }
        result.append(text)
    }
    return result
}

/// Runs one input (what it covers is at the top of this file); always returns 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzip(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    _ = try? GzipBody.decompress(Data(input.bytes))

    let values = strings(&input)
    let transport = ScriptedTransport()
    var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "fuzz")
    configuration.apiHost = "127.0.0.1"
    configuration.transport = transport
    configuration.storage = InMemoryEventStorage()
    configuration.keyValueStore = InMemoryKeyValueStore()
    configuration.randomSource = SeededRandomSource(seed: 13)
    configuration.compressesUploads = true
    let binoban = Binoban.create(configuration: configuration)
    let tracked: [JSONValue] = values.enumerated().map { index, value in ["v": .string(value), "i": .int(index)] }
    for properties in tracked { binoban.track(name: "fuzz", properties: properties) }
    runBlocking {
        _ = await binoban.flushAndWait()
        _ = await binoban.shutdown(gracePeriod: .seconds(5))
    }
    var received: [JSONValue] = []
    for request in transport.requests {
        require(request.headers["Content-Encoding"] == "gzip", "a compressed request without its header")
        require(GzipBody.isCompressed(request.body), "a body that is not a gzip member")
        guard let batch = try? UploadedBatch.decode(request.body) else {
            require(false, "a body that does not decompress to a batch")
            return 0
        }
        received += batch.batch.compactMap(\.properties)
    }
    require(binoban.statistics.dropped.total == 0, "an event was dropped: \(binoban.statistics.dropped)")
    require(received == tracked, "the decompressed events differ from the tracked ones")
    return 0
}
