#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The start-up pass over the storage directory: indexes this namespace's finished batches and repairs what a
/// previous process left unfinished.
///
/// For every file whose name matches the namespace's batch pattern and that is a regular file:
/// - the intact prefix is found (see ``BatchRecordFormat``); a file without a single intact event is deleted;
/// - a torn or corrupt tail is cut off (`ftruncate`, then `fsync` when the storage survives power loss);
/// - an `.open` file is then finished: its data is flushed (same condition) and it is renamed to `.batch`. The directory is not
///   synced: a rename lost to a power loss leaves the file `.open`, and the next open finishes it again.
///
/// A spare file of the namespace (``SpareBatchFile``, an uploaded batch's file kept for reuse) is deleted.
///
/// Every other entry of the directory (other names, other namespaces, sequences above
/// ``BatchFileName/maximumSequence``, directories, symbolic links, FIFOs) is left as it is. A file of ours that
/// cannot be read is left in place, reported in ``Outcome/issues``, and its sequence still counts so that new
/// batches sort after it.
struct BatchDirectoryRecovery {
    /// What the pass found.
    struct Outcome: Sendable {
        /// Finished batches, oldest first.
        var batches: [BatchIndexEntry] = []
        /// Counts for the host.
        var report = BinobanStorageRecoveryReport()
        /// The largest sequence of any file of this namespace, or nil when there is none.
        var highestSequence: UInt64?
        /// Files of ours that could not be read or repaired, left in place.
        var issues: [BinobanFileStorageError] = []
    }

    let files: POSIXFileSystem
    let namespace: String
    /// Bytes read from each file at most; the rest of a larger file is discarded as a corrupt tail.
    let readLimit: Int
    /// Whether a repaired file is flushed to the device before it is finished.
    var durability: BinobanFileDurability = .survivesPowerLoss

    /// Runs the pass. Throws only when the directory cannot be listed.
    func run() throws(BinobanFileStorageError) -> Outcome {
        var outcome = Outcome()
        let listed = try files.listNames()
        // A spare holds no event of this run or an earlier one (Decision 0232): it is let go.
        for spare in listed where SpareBatchFile.isSpare(spare, namespace: namespace) {
            try? files.removeIfPresent(spare)
        }
        let names = listed.compactMap { BatchFileName(parsing: $0, namespace: namespace) }
        let finishedSequences = Set(names.filter { $0.state == .finished }.map(\.sequence))
        for name in names.sorted(by: {
            ($0.sequence, $0.state == .open ? 1 : 0) < ($1.sequence, $1.state == .open ? 1 : 0)
        }) {
            outcome.highestSequence = max(outcome.highestSequence ?? 0, name.sequence)
            do {
                if let entry = try recover(
                    name, hasFinishedTwin: name.state == .open && finishedSequences.contains(name.sequence),
                    report: &outcome.report)
                {
                    outcome.batches.append(entry)
                }
            } catch {
                outcome.issues.append(error)
            }
        }
        return outcome
    }

    /// Indexes, repairs or deletes one file; returns its entry when it is (now) a finished batch.
    private func recover(
        _ name: BatchFileName, hasFinishedTwin: Bool, report: inout BinobanStorageRecoveryReport
    ) throws(BinobanFileStorageError) -> BatchIndexEntry? {
        let fileName = name.fileName(namespace: namespace)
        guard let (bytes, fileSize) = try files.readRegularFile(fileName, maxBytes: readLimit) else { return nil }
        let scan = bytes.withUnsafeBytes { BatchRecordFormat.scan($0) }
        if scan.eventCount == 0 || hasFinishedTwin {
            // Nothing intact, or a leftover beside a finished batch of the same sequence (renames are atomic, so
            // this only happens if someone copied files around): never let it replace the finished batch.
            try files.removeIfPresent(fileName)
            report.removedCorruptFiles += 1
            report.discardedBytes += fileSize
            return nil
        }
        let torn = scan.intactBytes < fileSize
        if torn || name.state == .open {
            let descriptor = try files.openForRepair(fileName)
            defer { close(descriptor) }
            if torn {
                try files.truncate(descriptor, to: scan.intactBytes, name: fileName)
                report.discardedBytes += fileSize - scan.intactBytes
            }
            if durability == .survivesPowerLoss { try files.synchronize(descriptor, name: fileName) }
        }
        if name.state == .open {
            try files.rename(
                fileName, to: BatchFileName(sequence: name.sequence, state: .finished).fileName(namespace: namespace))
            report.repairedBatches += 1
        } else if torn {
            report.repairedBatches += 1
        } else {
            report.recoveredBatches += 1
        }
        return BatchIndexEntry(
            sequence: name.sequence, fileBytes: scan.intactBytes, eventCount: scan.eventCount, bodyBytes: scan.bodyBytes
        )
    }
}
