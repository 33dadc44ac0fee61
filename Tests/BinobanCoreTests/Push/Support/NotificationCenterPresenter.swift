import BinobanCore

/// A presenter double that behaves like UserNotifications under the guide's recipe (Docs/PushNotifications.md):
/// it reads the installed category set, suspends, merges the request's category with the registry (passing the
/// request's in-use report) and writes the set back, then shows the notification until the user clears it.
///
/// The suspension between read and write is where a second display, were displays not one at a time, would
/// interleave and write a set without the first one's category; `maxConcurrentDisplays` counts them.
final class NotificationCenterPresenter: NotificationPresenter {
    private struct Center: Sendable {
        var registry: NotificationCategoryRegistry
        var categories: [NotificationCategory]
        /// Shown notifications, oldest first: uuid and category identifier.
        var shown: [ShownNotification] = []
        var activeDisplays = 0
        var maxConcurrentDisplays = 0
        var inUseReports: [Set<String>?] = []
    }

    /// One notification on screen or in Notification Center.
    struct ShownNotification: Sendable, Equatable {
        var uuid: String
        var category: String
    }

    private let center: LockedValue<Center>
    /// Whether ``categoriesInUse()`` answers (a presenter that cannot tell returns `nil`).
    let reportsInUse: Bool

    init(binobanCategoryLimit: Int = 64, reportsInUse: Bool = true, hostCategories: [NotificationCategory] = []) {
        self.reportsInUse = reportsInUse
        center = LockedValue(
            Center(
                registry: NotificationCategoryRegistry(binobanCategoryLimit: binobanCategoryLimit),
                categories: hostCategories))
    }

    func requestPermission(_ request: NotificationPermissionRequest) async -> NotificationPermissionResult {
        NotificationPermissionResult(status: .granted)
    }

    func categoriesInUse() async -> Set<String>? {
        guard reportsInUse else { return nil }
        return center.withLock { Set($0.shown.map(\.category)) }
    }

    func display(_ request: NotificationDisplayRequest) async -> NotificationDisplayResult {
        let installed = center.withLock { center -> [NotificationCategory] in
            center.activeDisplays += 1
            center.maxConcurrentDisplays = max(center.maxConcurrentDisplays, center.activeDisplays)
            center.inUseReports.append(request.categoriesInUse)
            return center.categories
        }
        await Task.yield()
        center.withLock { center in
            center.categories = center.registry.merge(
                request.category, into: installed, inUse: request.categoriesInUse)
            center.shown.append(
                ShownNotification(uuid: request.notificationUuid, category: request.category.identifier))
            center.activeDisplays -= 1
        }
        return NotificationDisplayResult(outcome: .displayed)
    }

    /// The user clears these notifications from Notification Center.
    func clear(_ uuids: Set<String>) {
        center.withLock { $0.shown.removeAll { uuids.contains($0.uuid) } }
    }

    var categories: [NotificationCategory] { center.withLock { $0.categories } }
    var shown: [ShownNotification] { center.withLock { $0.shown } }
    var maxConcurrentDisplays: Int { center.withLock { $0.maxConcurrentDisplays } }
    var inUseReports: [Set<String>?] { center.withLock { $0.inUseReports } }

    func category(_ identifier: String) -> NotificationCategory? {
        categories.first { $0.identifier == identifier }
    }
}
