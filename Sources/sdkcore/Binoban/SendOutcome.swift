import BinobanCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one run of `sdkcore binoban send` did, from which its exit status and its summary line follow.
///
/// The status is 0 only when every line was valid and every accepted event was sent (printed, with
/// `--dry-run`): nothing failed for good, nothing is left unsent, and every accepted line reached the storage
/// (Docs/Decisions/0535).
struct SendOutcome: Sendable {
    typealias Status = BinobanSendCommand.Status

    /// How the run ended.
    enum Ending: Sendable, Equatable {
        /// The whole input was read and the final flush returned.
        case endOfInput
        /// `--strict` stopped at a bad line.
        case stoppedAtBadLine
        /// A SIGINT or SIGTERM stopped reading or the final flush.
        case interrupted
        /// The input is not the one the checkpoint was written for.
        case inputChanged
        /// Reading the input failed.
        case unreadable
    }

    var ending: Ending
    /// The tool's own counters (lines, and what the storage confirmed).
    var counts: SendLedger.Counts
    /// The instance's statistics after its shutdown.
    var statistics: BinobanStatistics
    var dryRun: Bool
    /// `--storage`, if given.
    var storage: String?
    /// Whether a checkpoint write failed (the next run may send lines again).
    var checkpointFailed: Bool
    /// Whether an append failed part-way, so the checkpoint stayed before the lines whose events it lost.
    var checkpointHeld = false

    /// Events that earlier runs left in `--storage` (counted from its files at the start): they are uploaded
    /// (or fail) in this run beside its own, so the event sums include them.
    var leftByEarlierRuns = 0
    /// Events in `--storage` after the shutdown, counted from its files; `nil` without `--storage` (or when the
    /// files could not be read).
    var keptInStorage: Int?
    /// The signal that interrupted the run: the status is 128 plus its number (130 for SIGINT, 143 for SIGTERM).
    var signal: Int32 = SIGINT

    /// Events lost for good: rejected by the ingest, too large, evicted or refused by the storage bounds.
    var failed: Int { statistics.dropped.total }

    /// Events the instance still held for room in a full storage after its shutdown
    /// (`BinobanStatistics.heldEvents`): never stored, so lost with the process, and the checkpoint stays before
    /// them. Normally 0: a shutdown writes what it holds or counts it dropped (Docs/Decisions/0229).
    var held: Int { statistics.heldEvents }

    /// Events accepted (by this run or, for leftovers, an earlier one) that the ingest did not take and that are
    /// not counted as failed: with `--storage` those its files still hold after the shutdown plus those ``held``,
    /// otherwise those lost with the process (``held`` among them).
    var notSent: Int {
        if let keptInStorage { return keptInStorage + held }
        return max(0, counts.accepted + leftByEarlierRuns - statistics.uploadedEvents - failed)
    }

    /// Events the sums cannot place: `accepted + left by earlier runs - sent - failed - not sent`. Zero unless a
    /// count is wrong; the summary says so when it is not.
    var unaccounted: Int {
        counts.accepted + leftByEarlierRuns - statistics.uploadedEvents - failed - notSent
    }

    /// The reasons behind ``failed``, each with its count: `2 rejected by the ingest, 1 too large`.
    var failureReasons: String {
        let drops = statistics.dropped
        var reasons: [(Int, String)] = [
            (drops.rejected, "rejected by the ingest"), (drops.oversize, "too large"),
            (drops.storageEviction, "evicted from a full storage"), (drops.storageFull, "refused by a full storage"),
            (drops.storageFailure, "lost to a storage fault"), (drops.writeStageOverflow, "over the write stage"),
            (drops.paused, "sent while paused"), (drops.purged, "purged"),
        ]
        reasons += drops.stageReasons.sorted { $0.key < $1.key }.map { ($0.value, "dropped by a stage (\($0.key))") }
        return reasons.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    /// The exit status (the table in Docs/CLI.md and `--help`).
    var status: Int32 {
        switch ending {
        case .interrupted: return Status.signalled + signal
        case .inputChanged: return Status.inputChanged
        case .unreadable: return Status.unreadableInput
        case .endOfInput, .stoppedAtBadLine:
            if failed > 0 || notSent > 0 || checkpointFailed { return Status.someFailed }
            return counts.bad > 0 ? Status.badLine : Status.allSent
        }
    }

    /// The last line of every run: the counters, then what became of what was not sent.
    var summary: String {
        let notSent = self.notSent
        var parts = [
            Self.count(counts.read, "line", "lines") + " read",
            Self.count(counts.accepted, "event", "events") + " accepted",
        ]
        if leftByEarlierRuns > 0 {
            parts.append(Self.count(leftByEarlierRuns, "event", "events") + " left by an earlier run")
        }
        if dryRun {
            parts += ["would send \(statistics.uploadedEvents)", "\(failed) failed", "\(notSent) not printed"]
        } else {
            parts += ["\(statistics.uploadedEvents) sent", "\(failed) failed", "\(notSent) not sent"]
        }
        parts.append(Self.count(counts.bad, "bad line", "bad lines"))
        if counts.skipped > 0 {
            var why: [String] = []
            if counts.resumed > 0 { why.append("\(counts.resumed) stored by an earlier run") }
            if counts.blank > 0 { why.append("\(counts.blank) blank") }
            parts.append(Self.count(counts.skipped, "line", "lines") + " skipped (\(why.joined(separator: ", ")))")
        }
        var text = "sdkcore binoban send: " + parts.joined(separator: ", ")
        if failed > 0 { text += "; failed: \(failureReasons)" }
        if unaccounted != 0 { text += "; \(unaccounted) events unaccounted for (the counts disagree: a bug)" }
        if dryRun { text += "; dry run: nothing was sent" }
        if ending == .interrupted { text += "; interrupted by a signal" }
        if ending == .stoppedAtBadLine { text += "; stopped at the first bad line (--strict)" }
        if notSent > 0, !dryRun {
            if let storage {
                let kept = notSent - held
                if kept > 0 {
                    let events = kept == 1 ? "the event not sent is" : "the \(kept) events not sent are"
                    text += "; \(events) kept in \(storage) for the next run"
                }
                if held > 0 {
                    let events = held == 1 ? "1 event" : "\(held) events"
                    text +=
                        "; \(events) held for room in the full storage could not be stored before the end: the next"
                        + " run on the same input sends them again"
                }
            } else {
                let events = notSent == 1 ? "the event not sent is" : "the \(notSent) events not sent are"
                text += "; \(events) lost with this run (use --storage to keep them)"
                if held > 0 { text += " (\(held) of them held for room in the full storage)" }
            }
        }
        if checkpointHeld, storage != nil {
            text +=
                "; \(counts.unstored) events could not be stored, so the checkpoint stays before them: the next run"
                + " on the same input sends them and every later line again"
        }
        if ending == .interrupted, storage != nil, !checkpointFailed, !checkpointHeld {
            text += "; the same command on the same input continues where this run stopped"
        }
        return text
    }

    /// `1 line`, `2 lines`, `0 lines`.
    private static func count(_ number: Int, _ one: String, _ many: String) -> String {
        "\(number) \(number == 1 ? one : many)"
    }
}
