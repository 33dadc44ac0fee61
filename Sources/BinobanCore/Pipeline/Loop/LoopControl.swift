/// What the loop's control calls and the loop share: who waits for what, the deadline the loop waits for, and how
/// many turns it took.
struct LoopControl<Instant: InstantProtocol> {
    var started = false
    var finished = false
    var waiters = DriverWaiters()
    var deadline: Instant?
    var turns = 0
}
