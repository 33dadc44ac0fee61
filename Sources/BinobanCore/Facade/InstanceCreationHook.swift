/// The single point where every newly created, usable ``Binoban`` instance is announced.
///
/// Integration hook: the push notification layer (`BinobanNotifications.shared`) learns about instances here.
/// Called by the factory after the instance is built and before it is returned; must not block.
func binobanInstanceWasCreated(_ instance: Binoban) {}
