/// What the storage remembers about one batch file without reading it again.
struct BatchIndexEntry: Hashable, Sendable {
    /// The batch sequence (its file name and its ``BinobanBatchID``).
    var sequence: UInt64
    /// Bytes of the file on disk.
    var fileBytes: Int
    /// Events the file holds.
    var eventCount: Int
    /// Bytes of the upload body the events make (payloads joined by commas).
    var bodyBytes: Int
}
