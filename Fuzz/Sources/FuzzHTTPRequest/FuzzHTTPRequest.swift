import FuzzSupport
@_spi(Fuzzing) import LoopbackHTTP

// The loopback server's HTTP/1.1 request parser, fed the bytes in reads of fuzzed sizes. Invariant: the same
// bytes give the same outcome whatever the read sizes, up to the first failure.

/// Runs one input (what it covers is at the top of this file); always returns 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let sizes = (0..<(1 + input.choice(4))).map { _ in 1 + input.choice(64) }
    let small = input.bool()
    let bytes = input.rest()
    let (head, body) = small ? (256, 512) : (8192, 1 << 20)
    let chunked = LoopbackHTTPFuzzing.parse(bytes, chunkSizes: sizes, maxHeadBytes: head, maxBodyBytes: body)
    let whole = LoopbackHTTPFuzzing.parse(bytes, chunkSizes: [], maxHeadBytes: head, maxBodyBytes: body)
    require(
        chunked.requests == whole.requests && chunked.failureStatus == whole.failureStatus,
        "read sizes do not change what is parsed")
    return 0
}
