/// A Binoban instance receives the notification layer's events: `track(name:properties:)` through its normal
/// queue, and `setDeviceToken(token:)`, which sets `context.device.token` and tracks
/// `bb_notification_registered`.
extension Binoban: BinobanNotificationTarget {}
