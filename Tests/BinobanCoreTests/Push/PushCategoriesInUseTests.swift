import BinobanCore
import Testing

/// The seed: "Notification categories are merged, not replaced, so registering a notification with buttons never
/// removes an earlier one's buttons" — also when every notification has buttons of its own.
@Suite("Push categories in use are never removed")
struct PushCategoriesInUseTests {
    private static let host = NotificationCategory(
        identifier: "chat.reply", actions: [NotificationAction(identifier: "reply", title: "Reply")])

    /// A push whose button carries a per-notification title, so every push has a category of its own.
    private static func replyPush(_ index: Int) -> JSONValue {
        binobanUserInfo(
            uuid: "n-\(index)", actions: [BinobanPushAction(id: "reply", title: "Reply to Anna \(index)", uri: nil)])
    }

    private static func layer(_ presenter: NotificationCenterPresenter) -> BinobanNotifications {
        let (notifications, _, _) = makeAttachedLayer(presenter: presenter)
        notifications.initializeNotifications(configuration: .init(askNotificationPermissionOnStart: false))
        return notifications
    }

    /// Every shown notification's category is installed with exactly its own buttons.
    private static func expectEveryShownNotificationKeepsItsButtons(
        _ presenter: NotificationCenterPresenter, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for shown in presenter.shown {
            let index = Int(shown.uuid.dropFirst(2)) ?? -1
            #expect(
                presenter.category(shown.category)?.actions.map(\.title) == ["Reply to Anna \(index)"],
                "\(shown.uuid) lost its buttons", sourceLocation: sourceLocation)
        }
    }

    @Test("150 notifications with per-notification buttons, all still shown: none loses its buttons")
    func perNotificationTitlesKeepTheirButtons() async {
        let presenter = NotificationCenterPresenter(hostCategories: [Self.host])
        let notifications = Self.layer(presenter)
        // Pushes arrive from several tasks at once, as callbacks do.
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<3 {
                group.addTask {
                    for index in stride(from: producer, to: 150, by: 3) {
                        _ = await notifications.onApplicationDidReceiveRemoteNotification(
                            userInfo: Self.replyPush(index)
                        ).value
                    }
                }
            }
        }
        #expect(presenter.shown.count == 150)
        // Past the cap of 64, because every category is in use; the host's category untouched.
        #expect(presenter.categories.count == 1 + 150)
        #expect(presenter.categories.first == Self.host)
        Self.expectEveryShownNotificationKeepsItsButtons(presenter)
        // Displays reached the presenter one at a time, each with a current in-use report.
        #expect(presenter.maxConcurrentDisplays == 1)
        #expect(presenter.inUseReports.enumerated().allSatisfy { $0.element?.count == $0.offset })
    }

    @Test("Cleared notifications' categories go first: the set shrinks back to the cap, shown ones stay")
    func clearedCategoriesAreEvictedFirst() async {
        let presenter = NotificationCenterPresenter(hostCategories: [Self.host])
        let notifications = Self.layer(presenter)
        for index in 0..<100 {
            _ = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: Self.replyPush(index)).value
        }
        // The user clears all but n-20…n-29 (in the middle: older and newer ones are removed around them).
        presenter.clear(Set((0..<100).filter { !(20..<30).contains($0) }.map { "n-\($0)" }))
        _ = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: Self.replyPush(100)).value
        #expect(presenter.shown.map(\.uuid) == (20..<30).map { "n-\($0)" } + ["n-100"])
        #expect(presenter.categories.count == 1 + 64)
        #expect(presenter.categories.first == Self.host)
        Self.expectEveryShownNotificationKeepsItsButtons(presenter)
        // The cleared ones that stay are the most recent (least recently used go first): n-47…n-99.
        let kept = Set(presenter.categories.dropFirst().map(\.identifier))
        let expectedCleared = (0..<100).filter { !(20..<30).contains($0) }.suffix(64 - 11)
        let clearedIdentifiers = Set(
            expectedCleared.map { index in
                NotificationCategoryRegistry.identifier(forActions: [
                    NotificationAction(identifier: "reply", title: "Reply to Anna \(index)")
                ])
            })
        #expect(clearedIdentifiers.isSubset(of: kept))
    }

    @Test("A presenter that cannot tell gets nil and the registry's plain cap")
    func presenterWithoutInUseReport() async {
        let presenter = NotificationCenterPresenter(binobanCategoryLimit: 3, reportsInUse: false)
        let notifications = Self.layer(presenter)
        for index in 0..<5 {
            _ = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: Self.replyPush(index)).value
        }
        #expect(presenter.inUseReports == Array(repeating: nil, count: 5))
        #expect(presenter.categories.count == 3)
        #expect(presenter.category(presenter.shown[0].category) == nil)
    }

    @Test("The default categoriesInUse() of an existing presenter answers nil")
    func defaultInUseReport() async {
        let presenter = ScriptedPresenter()
        #expect(await presenter.categoriesInUse() == nil)
        let (notifications, _, _) = makeAttachedLayer(presenter: presenter)
        notifications.initializeNotifications(configuration: .init(askNotificationPermissionOnStart: false))
        _ = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: Self.replyPush(1)).value
        #expect(presenter.displayRequests.map(\.categoriesInUse) == [nil])
    }
}
