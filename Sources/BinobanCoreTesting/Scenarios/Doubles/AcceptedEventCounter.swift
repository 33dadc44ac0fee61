/// Calls the scenario's instance and counts the events it accepted, so that the runner can wait until they
/// reached the storage. It is also the notification layer's target, so push events are counted the same way.
struct AcceptedEventCounter: BinobanNotificationTarget {
    let binoban: Binoban
    private let count = LockedValue(0)

    init(binoban: Binoban) {
        self.binoban = binoban
    }

    /// The events accepted so far.
    var accepted: Int { count.withLock { $0 } }

    /// Runs `call`, which hands the instance one event, and counts it when the instance accepts events
    /// (operational and not paused) and `valid` holds.
    func submit(valid: Bool = true, _ call: (Binoban) -> Void) {
        let accepting = binoban.isOperational && binoban.enabled && valid
        call(binoban)
        if accepting { count.withLock { $0 += 1 } }
    }

    /// Counts `events` the instance reported as accepted.
    func add(_ events: Int) {
        count.withLock { $0 += events }
    }

    func track(name: String, properties: JSONValue) {
        submit { $0.track(name: name, properties: properties) }
    }

    func setDeviceToken(token: String) {
        submit(valid: !token.allSatisfy(\.isWhitespace)) { $0.setDeviceToken(token: token) }
    }
}
