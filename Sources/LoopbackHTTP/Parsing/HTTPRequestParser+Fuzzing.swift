/// The request parser as the fuzz targets in `Fuzz/` drive it. SPI for those targets, not API: import it with
/// `@_spi(Fuzzing) import LoopbackHTTP`.
@_spi(Fuzzing)
public enum LoopbackHTTPFuzzing: Sendable {
    /// What one run of the parser produced.
    public struct Outcome: Sendable, Hashable {
        /// Requests parsed completely.
        public var requests = 0
        /// `100 Continue` answers the parser asked for.
        public var continues = 0
        /// The status of the error answer that ended the connection, if any.
        public var failureStatus: Int?
    }

    /// Feeds `bytes` to a fresh parser, as `chunkSizes` successive reads (cycled; sizes below 1 count as 1),
    /// and takes every event after each read, as the server does.
    ///
    /// - Complexity: O(n) in the number of bytes for a correct parser; the fuzz targets check that it returns.
    public static func parse(
        _ bytes: [UInt8], chunkSizes: [Int], maxHeadBytes: Int = 8192, maxBodyBytes: Int = 1 << 20
    ) -> Outcome {
        var parser = HTTPRequestParser(
            limits: HTTPRequestParser.Limits(maxHeadBytes: maxHeadBytes, maxBodyBytes: maxBodyBytes))
        var outcome = Outcome()
        var offset = 0
        var read = 0
        let sizes = chunkSizes.isEmpty ? [bytes.count] : chunkSizes
        while offset < bytes.count {
            let size = max(1, sizes[read % sizes.count])
            read += 1
            let end = min(bytes.count, offset + size)
            parser.append(Array(bytes[offset..<end]))
            offset = end
            while true {
                switch parser.nextEvent() {
                case .needMoreData:
                    break
                case .sendContinue:
                    outcome.continues += 1
                    continue
                case .request:
                    outcome.requests += 1
                    continue
                case .failure(let status):
                    outcome.failureStatus = status
                    return outcome
                }
                break
            }
        }
        return outcome
    }
}
