extension RetryAfter {
    /// How long to wait from `now`: zero for a date in the past.
    func delay(nowMillisSince1970 now: Int64) -> Duration {
        .milliseconds(delayMillis(nowMillisSince1970: now))
    }
}
