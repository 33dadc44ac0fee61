import BinobanCore

/// The wall clock of `sdkcore binoban send`: the system time, except inside ``stamping(_:_:)`` where a line's
/// own `timestamp` is returned to the calls made by that task.
///
/// The instance reads its wall clock on the caller's thread while it accepts an event, and on its own tasks
/// when it uploads (`sentAt`). The override is a task-local value, so only the sending task's synchronous
/// `track`/`identify` call sees it; uploads keep the real time.
struct LineTimestampWallClock: BinobanWallClock {
    @TaskLocal static var override: Int64?

    private let system = SystemWallClock()

    func currentMillisecondsSince1970() -> Int64 {
        Self.override ?? system.currentMillisecondsSince1970()
    }

    /// Runs `body` (a synchronous call into the instance) with the wall clock reading `milliseconds`, if given.
    static func stamping(_ milliseconds: Int64?, _ body: () -> Void) {
        guard let milliseconds else { return body() }
        $override.withValue(milliseconds) { body() }
    }
}
