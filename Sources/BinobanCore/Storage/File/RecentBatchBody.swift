/// The upload body of the newest batch, kept in memory while it is written and after it is finished, so that the
/// batch an upload reads next (when events come one at a time, the one just finished) needs no file read: no
/// open, `fstat`, `read` and `close`, and no checksum pass over bytes this process wrote a moment ago.
///
/// Bounded: a body that would grow past ``limit`` bytes (judged by the records written, before they are copied) is
/// let go, and its batch is read from its file as before (a batch of an outage or a burst; the bodies of
/// one-at-a-time traffic are a few kilobytes). At most two bodies
/// are held: the open batch's and the last finished one's. What the file storage checks on a read still holds:
/// the body is used only while the batch's file exists and the body holds as many events as the batch's index
/// entry (Docs/Decisions/0231).
struct RecentBatchBody {
    /// The most bytes of body kept for one batch.
    static let defaultLimit = 64 * 1024

    struct Body {
        var sequence: UInt64
        /// The events joined by commas. Bytes, not `Data`: an append per write is a plain copy (a `Data` append
        /// went through its generic sequence path), and the one read per batch makes the `Data` once.
        var events: [UInt8] = []
        var eventCount = 0
    }

    let limit: Int
    /// The open batch's body so far; nil once it outgrew the limit (or after a failed write).
    private(set) var open: Body?
    /// The last finished batch's body.
    private(set) var finished: Body?

    init(limit: Int = Self.defaultLimit) {
        self.limit = limit
    }

    /// A new open batch began, empty.
    mutating func began(_ sequence: UInt64) {
        open = Body(sequence: sequence)
    }

    /// `records` (framed by ``BatchRecordFormat``, written whole to the open batch `sequence`) joined the batch.
    mutating func wrote(records: [UInt8], to sequence: UInt64) {
        guard var body = open, body.sequence == sequence else { return }
        open = nil
        // Let go before the copy when the records alone (each payload plus an 8-byte header, more than the comma
        // it adds to the body) would not fit: a burst's writes of hundreds of kilobytes are not copied only to be
        // dropped a moment later.
        guard body.events.count + records.count <= limit else { return }
        let appended = records.withUnsafeBytes { raw -> Bool in
            BatchRecordFormat.forEachWrittenRecord(in: raw) { payload in
                if body.eventCount > 0 { body.events.append(UInt8(ascii: ",")) }
                body.events.append(contentsOf: payload)
                body.eventCount += 1
            }
        }
        guard appended, body.events.count <= limit else { return }
        open = body
    }

    /// The open batch's writes can no longer be followed (a failed write): its body is let go.
    mutating func lostTrack(of sequence: UInt64) {
        if open?.sequence == sequence { open = nil }
    }

    /// The batch `sequence` was finished: its body, if held, becomes the finished one.
    mutating func finished(_ sequence: UInt64) {
        guard let body = open, body.sequence == sequence else { return }
        open = nil
        finished = body
    }

    /// The finished batch `sequence`'s body, when held and holding `eventCount` events.
    func body(of sequence: UInt64, eventCount: Int) -> Body? {
        guard let body = finished, body.sequence == sequence, body.eventCount == eventCount else { return nil }
        return body
    }

    /// The batch `sequence` left the storage (removed, evicted, found missing): its body goes too.
    mutating func forget(_ sequence: UInt64) {
        if finished?.sequence == sequence { finished = nil }
        if open?.sequence == sequence { open = nil }
    }

    /// Lets go of every body.
    mutating func forgetAll() {
        open = nil
        finished = nil
    }
}
