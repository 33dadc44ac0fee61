import BenchmarkSupport

/// What one `BENCH_MODE=real-ingest` run does, from the environment the driver (`Scripts/real-ingest/compare.py`)
/// sets.
///
/// - `REAL_INGEST_HOST`: the `apiHost`, for example `127.0.0.1:8443` (HTTPS, the default scheme) or
///   `http://127.0.0.1:8080` (plain HTTP, allowed for loopback).
/// - `REAL_INGEST_PROGRESS`: the ingest's progress file (see ``IngestProgressFile``).
/// - `REAL_INGEST_RATE` events a second for `REAL_INGEST_SECONDS` seconds (default 200 for 30); a rate of 0 is
///   a tight-loop burst of `REAL_INGEST_EVENTS` (default 100 000).
/// - `REAL_INGEST_PATIENCE`: after the last `track()`, how long the run waits without a new event at the ingest
///   before it gives up (default 60 s); `REAL_INGEST_LIMIT`: the most seconds from the start (default 300).
struct RealIngestSettings {
    var apiHost: String
    var progressPath: String
    var rate: Int
    var seconds: Int
    var burstEvents: Int
    var patienceSeconds: Int
    var limitSeconds: Int

    /// The settings, or `nil` when the host or the progress file is missing.
    static func fromEnvironment() -> RealIngestSettings? {
        guard let host = environment("REAL_INGEST_HOST"), let progress = environment("REAL_INGEST_PROGRESS") else {
            return nil
        }
        return RealIngestSettings(
            apiHost: host, progressPath: progress, rate: max(0, environmentInt("REAL_INGEST_RATE", 200)),
            seconds: max(1, environmentInt("REAL_INGEST_SECONDS", 30)),
            burstEvents: max(1, environmentInt("REAL_INGEST_EVENTS", 100_000)),
            patienceSeconds: max(1, environmentInt("REAL_INGEST_PATIENCE", 60)),
            limitSeconds: max(1, environmentInt("REAL_INGEST_LIMIT", 300)))
    }

    /// How many events the run tracks.
    var events: Int { rate == 0 ? burstEvents : rate * seconds }
}
