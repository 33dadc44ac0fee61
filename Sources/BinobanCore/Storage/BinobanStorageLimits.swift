/// The bounds every event storage enforces.
///
/// Defaults follow the Binoban SDK: events below 32 000 bytes, batches that stay below 500 KB once wrapped in
/// the upload envelope, and at most 20 finished batches and 5 MB on disk, oldest dropped first.
public struct BinobanStorageLimits: Sendable, Hashable {
    /// An encoded event of this many bytes or more is refused.
    public var maxEventBytes: Int
    /// A batch closes before its events plus ``envelopeOverheadBytes`` would reach this many bytes (and, when
    /// ``maxTotalBytes`` is smaller, before its stored bytes would be over ``maxTotalBytes``, so that a finished
    /// batch is never evicted by its own size).
    public var maxBatchBytes: Int
    /// The bytes the upload envelope adds around a batch's events:
    /// `{"batch":[` + `],"sentAt":"<24 characters>","writeKey":"<source>"}`.
    public var envelopeOverheadBytes: Int
    /// At most this many finished batches are kept; the oldest are dropped first.
    public var maxFinishedBatches: Int
    /// At most this many bytes of finished batches are kept; the oldest are dropped first.
    public var maxTotalBytes: Int

    /// Creates limits; every default is the Binoban SDK's.
    public init(
        maxEventBytes: Int = 32_000,
        maxBatchBytes: Int = 500_000,
        envelopeOverheadBytes: Int = 256,
        maxFinishedBatches: Int = 20,
        maxTotalBytes: Int = 5_000_000
    ) {
        self.maxEventBytes = maxEventBytes
        self.maxBatchBytes = maxBatchBytes
        self.envelopeOverheadBytes = envelopeOverheadBytes
        self.maxFinishedBatches = maxFinishedBatches
        self.maxTotalBytes = maxTotalBytes
    }

    /// The Binoban mobile SDK's bounds: 32 000-byte events, 500 KB batches, 20 batches and 5 MB kept.
    public static let mobile = BinobanStorageLimits()

    /// Bounds a server chooses: the mobile event and batch sizes, but up to 10 000 finished batches and
    /// 512 MiB on disk, so that a burst or an outage of several minutes at thousands of events a second waits
    /// on disk instead of being evicted.
    public static let server = BinobanStorageLimits(maxFinishedBatches: 10_000, maxTotalBytes: 512 * 1_048_576)

    /// The default of ``Configuration/storageLimits``: ``mobile`` on iOS, tvOS, watchOS and visionOS,
    /// ``server`` everywhere else (Linux, macOS, Windows).
    public static var platformDefault: BinobanStorageLimits {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return .mobile
        #else
        return .server
        #endif
    }

    /// These limits with the finished-batch and byte caps lowered to ``mobile``'s: the bound of the in-memory
    /// fallback storage, which must not hold hundreds of megabytes in memory.
    var cappedForMemory: BinobanStorageLimits {
        var capped = self
        capped.maxFinishedBatches = min(maxFinishedBatches, Self.mobile.maxFinishedBatches)
        capped.maxTotalBytes = min(maxTotalBytes, Self.mobile.maxTotalBytes)
        return capped
    }

    /// The envelope overhead for a given source identifier (the `writeKey` of the envelope), JSON-escaped.
    package static func envelopeOverhead(forWriteKey writeKey: String) -> Int {
        var escaped: [UInt8] = []
        JSONWriter.appendString(writeKey, to: &escaped)
        // {"batch":[  +  ],"sentAt":"yyyy-MM-ddTHH:mm:ss.SSSZ","writeKey":  + escaped key +  }
        return #"{"batch":["#.utf8.count + #"],"sentAt":"2026-08-02T12:00:30.004Z","writeKey":"#.utf8.count
            + escaped.count + 1
    }
}

extension BinobanStorageLimits {
    /// Whether the open batch must be finished before the next event goes in: once the event is added, the
    /// batch's events plus the envelope would reach ``maxBatchBytes``, or the bytes the storage counts for the
    /// batch would be over ``maxTotalBytes``.
    ///
    /// The second bound keeps a batch that is finished from being evicted by its own size when ``maxTotalBytes``
    /// is below ``maxBatchBytes``: the storage would otherwise fill one batch up to ``maxBatchBytes`` and drop
    /// all of it the moment it is finished. Both storages and their room forecast use this one rule.
    ///
    /// - Parameters:
    ///   - bodyBytes: the batch body with the event, as sent (events and the commas between them).
    ///   - countedBytes: what the storage counts against ``maxTotalBytes`` for the batch with the event.
    ///   - envelopeOverhead: the envelope's bytes as the storage reckons them (``envelopeOverheadBytes``, or the
    ///     exact overhead for a known write key).
    package func finishesOpenBatch(bodyBytes: Int, countedBytes: Int, envelopeOverhead: Int) -> Bool {
        bodyBytes + envelopeOverhead >= maxBatchBytes || countedBytes > maxTotalBytes
    }
}

extension BinobanStorageLimits {
    /// The largest value any limit may take: `Int.max / 16` (about 5.7 × 10^17 on 64-bit platforms), so that
    /// the storages' sums of limits and sizes can never overflow.
    package static let maximumValue = Int.max / 16

    /// These limits with every value clamped to `0...maximumValue`; the storages enforce this copy, made when
    /// they are created.
    ///
    /// A negative limit counts as 0 (every event refused, or every finished batch evicted), as before except
    /// for a negative envelope overhead; a limit above ``maximumValue`` is beyond any memory or disk, so
    /// lowering it changes no behaviour and only rules out integer overflow in sums such as
    /// `event.count + envelopeOverheadBytes`.
    package func validated() -> BinobanStorageLimits {
        BinobanStorageLimits(
            maxEventBytes: Self.clamped(maxEventBytes),
            maxBatchBytes: Self.clamped(maxBatchBytes),
            envelopeOverheadBytes: Self.clamped(envelopeOverheadBytes),
            maxFinishedBatches: Self.clamped(maxFinishedBatches),
            maxTotalBytes: Self.clamped(maxTotalBytes)
        )
    }

    /// The limits ``validated()`` raises because they are negative, one value-free sentence each; empty when
    /// none. Values above ``maximumValue`` (such as `Int.max` for "no limit") are lowered silently: they mean
    /// the same. The pipeline reports these with the other configuration adjustments.
    package var adjustments: [String] {
        let limits: [(String, Int)] = [
            ("maxEventBytes", maxEventBytes), ("maxBatchBytes", maxBatchBytes),
            ("envelopeOverheadBytes", envelopeOverheadBytes), ("maxFinishedBatches", maxFinishedBatches),
            ("maxTotalBytes", maxTotalBytes),
        ]
        return limits.filter { $0.1 < 0 }.map { "storageLimits.\($0.0) \($0.1) is negative; using 0" }
    }

    private static func clamped(_ value: Int) -> Int { min(max(0, value), maximumValue) }
}
