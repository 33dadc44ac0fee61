/// What a finished batch file of ``BinobanFileEventStorage`` survives.
///
/// Both levels are crash-consistent: what `append` reports as stored has been handed to the kernel with `write`,
/// so a killed process loses none of it, and every record is length- and checksum-framed, so a batch body is
/// always a valid sequence of complete events. They differ only when the whole machine stops (power loss,
/// kernel panic) before the kernel has written its cache back. See `Docs/Decisions/0253-file-durability-levels.md`.
///
/// ```swift
/// let storage = try BinobanFileEventStorage(
///     directory: directory, namespace: "source", durability: .survivesPowerLoss)
/// ```
public enum BinobanFileDurability: Sendable, Hashable, CaseIterable {
    /// No device flush: a process kill loses nothing reported as stored; a power loss may lose the batches
    /// finished in the last few seconds (those the kernel had not written back yet), never corrupt one.
    case survivesProcessCrash
    /// A batch's data is flushed to the device (`fdatasync`; `fsync` on Darwin) before the batch is renamed to
    /// finished, and a repaired file before it is finished at start-up: a power loss costs at most the open
    /// batch's tail.
    case survivesPowerLoss
}
