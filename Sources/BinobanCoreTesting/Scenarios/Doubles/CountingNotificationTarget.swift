/// Forwards the notification layer's events to the scenario's instance and counts those the instance accepted,
/// so that the runner can wait until they reached the storage.
struct CountingNotificationTarget: BinobanNotificationTarget {
    let binoban: Binoban
    let accepted: LockedValue<Int>

    func track(name: String, properties: JSONValue) {
        let accepting = binoban.isOperational && binoban.enabled
        binoban.track(name: name, properties: properties)
        if accepting { accepted.withLock { $0 += 1 } }
    }

    func setDeviceToken(token: String) {
        let accepting = binoban.isOperational && binoban.enabled && !token.allSatisfy(\.isWhitespace)
        binoban.setDeviceToken(token: token)
        if accepting { accepted.withLock { $0 += 1 } }
    }
}
