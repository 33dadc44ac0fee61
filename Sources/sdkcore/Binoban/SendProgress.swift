import BinobanCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The progress display of `sdkcore binoban send` on standard error.
struct SendProgress: Sendable {
    /// How progress is shown.
    enum Mode: String, Sendable {
        /// One line refreshed in place (the default on a terminal).
        case tty
        /// A plain line whenever the counters changed, at most twice a second.
        case plain
        /// Only the final summary (the default when standard error is not a terminal).
        case none
    }

    let mode: Mode
    /// Whether the run is a `--dry-run`: the line then says "would send".
    var dryRun = false
    let started = ContinuousClock.now
    /// Where the text goes: standard error, or a test's recorder.
    var sink: @Sendable (String) -> Void = { SendProgress.write($0) }
    /// Held for each write: a progress line and a message line never interleave (Docs/Decisions/0537).
    private let writing = LockedValue(())

    init(mode: Mode, dryRun: Bool = false) {
        self.mode = mode
        self.dryRun = dryRun
    }

    /// `mode`, or for `auto` the terminal check of standard error.
    static func resolve(_ option: String?) -> Mode? {
        guard let option, option != "auto" else { return isatty(2) == 1 ? .tty : Mode.none }
        return Mode(rawValue: option)
    }

    /// `read 120 (42 %) · stored 118 · sent 100 · failed 0 · 850 events/s`; the percentage of the input read
    /// appears when its size is known (a file, not a pipe), and `· held 30` after `stored` while a full storage
    /// holds events back (they wait in memory for an upload to free room).
    func line(_ counts: SendLedger.Counts) -> String {
        Self.line(counts, elapsed: started.duration(to: .now), dryRun: dryRun)
    }

    /// The progress line for `counts` after `elapsed`: the rate is events sent per second of the run.
    static func line(_ counts: SendLedger.Counts, elapsed: Duration, dryRun: Bool = false) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Int((Double(counts.sent) / seconds).rounded()) : 0
        let failed = counts.rejected + counts.oversize + counts.evicted
        var read = "read \(counts.read)"
        if let total = counts.inputBytes {
            let percent = total > 0 ? min(100, counts.bytesRead * 100 / total) : 100
            read += " (\(percent) %)"
        }
        let sent = dryRun ? "would send \(counts.sent)" : "sent \(counts.sent)"
        let held = counts.held > 0 ? " · held \(counts.held)" : ""
        return read + " · stored \(counts.stored)\(held) · \(sent) · failed \(failed)"
            + (counts.bad > 0 ? " · bad \(counts.bad)" : "") + " · \(rate) events/s"
    }

    /// Shows `counts` now.
    func show(_ counts: SendLedger.Counts) {
        let text: String
        switch mode {
        case .tty: text = "\r\u{1B}[K" + line(counts)
        case .plain: text = "progress: " + line(counts) + "\n"
        case .none: return
        }
        writing.withLock { _ in sink(text) }
    }

    /// Prints `text` as a line of its own on standard error: the in-place progress line is cleared first, in
    /// the same write, so no progress line runs into it.
    func printLine(_ text: String) {
        let clear = mode == .tty ? "\r\u{1B}[K" : ""
        writing.withLock { _ in sink(clear + text + "\n") }
    }

    /// Writes `text` to standard error as it is (no newline added).
    static func write(_ text: String) {
        var standardError = StandardError()
        standardError.write(text)
    }

    /// Ends an in-place line before other text is written.
    func clearLine() {
        if mode == .tty { writing.withLock { _ in sink("\r\u{1B}[K") } }
    }

    /// Ends the in-place line with a newline, so the shell's prompt starts on a line of its own.
    func endLine() {
        if mode == .tty { writing.withLock { _ in sink("\n") } }
    }
}
