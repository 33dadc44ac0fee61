import BinobanCore
import Testing

/// A platform category as UserNotifications holds it: a reference type the presenter recipe never converts.
private final class FakePlatformCategory: Sendable {
    let identifier: String
    let actions: [String]
    let customDismissAction: Bool

    init(identifier: String, actions: [String], customDismissAction: Bool) {
        self.identifier = identifier
        self.actions = actions
        self.customDismissAction = customDismissAction
    }
}

/// `UNUserNotificationCenter`'s category set: read it all, write it all.
private final class FakeCategoryStore: Sendable {
    private let installed = LockedValue<[FakePlatformCategory]>([])

    func notificationCategories() -> [FakePlatformCategory] { installed.withLock { $0 } }
    func setNotificationCategories(_ categories: [FakePlatformCategory]) { installed.withLock { $0 = categories } }
    func category(_ identifier: String) -> FakePlatformCategory? {
        notificationCategories().first { $0.identifier == identifier }
    }
}

/// The logic of the iOS presenter recipe in Docs/PushNotifications.md, line for line, against the fake store.
private struct RecipePresenter {
    var registry = NotificationCategoryRegistry()
    let center: FakeCategoryStore

    mutating func install(_ request: NotificationDisplayRequest) {
        let installed = center.notificationCategories()
        let merged = registry.merge(
            request.category, into: Array(installed), inUse: request.categoriesInUse, identifier: \.identifier
        ) { category in
            FakePlatformCategory(
                identifier: category.identifier,
                actions: category.actions.map(\.identifier),
                customDismissAction: category.reportsDismissal
            )
        }
        center.setNotificationCategories(merged)
    }
}

/// A presenter edge that records display requests (the recipe needs them one at a time).
private final class CapturingPresenter: NotificationPresenter, Sendable {
    private let requests = LockedValue<[NotificationDisplayRequest]>([])

    var displayRequests: [NotificationDisplayRequest] { requests.withLock { $0 } }

    func requestPermission(_ request: NotificationPermissionRequest) async -> NotificationPermissionResult {
        NotificationPermissionResult(status: .granted)
    }

    func display(_ request: NotificationDisplayRequest) async -> NotificationDisplayResult {
        requests.withLock { $0.append(request) }
        return NotificationDisplayResult(outcome: .displayed)
    }
}

@Suite("Push seed rules: merged categories, per-button targets, seed-shaped handlers")
struct PushSeedRulesTests {
    private static func buttons(_ ids: String...) -> [BinobanPushAction] {
        ids.map { BinobanPushAction(id: $0, title: $0.uppercased(), uri: "app://\($0)") }
    }

    @Test("The recipe merges, never replaces: a host category and every earlier push keep their buttons")
    func recipeKeepsEarlierButtons() async throws {
        let presenter = CapturingPresenter()
        let (notifications, _, _) = makeAttachedLayer(presenter: presenter)
        notifications.initializeNotifications(configuration: .init(askNotificationPermissionOnStart: false))
        let center = FakeCategoryStore()
        center.setNotificationCategories([
            FakePlatformCategory(identifier: "chat.reply", actions: ["reply"], customDismissAction: false)
        ])
        var recipe = RecipePresenter(center: center)

        let layouts = [Self.buttons("yes", "no"), Self.buttons("buy"), [], Self.buttons("later", "never", "ok")]
        for index in 0..<200 {
            let userInfo = binobanUserInfo(uuid: "n-\(index)", actions: layouts[index % layouts.count])
            _ = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: userInfo).value
            recipe.install(try #require(presenter.displayRequests.last))
        }

        // One category per distinct button set (three with buttons, plus the shared default), not one per push.
        let installed = center.notificationCategories()
        #expect(installed.count == 1 + 4)
        #expect(center.category("chat.reply")?.actions == ["reply"])
        // The first push's category still has its buttons, after 199 more pushes.
        let first = try #require(presenter.displayRequests.first)
        #expect(center.category(first.category.identifier)?.actions == ["yes", "no"])
        #expect(installed.allSatisfy { $0.identifier == "chat.reply" || $0.customDismissAction })
        for request in presenter.displayRequests {
            let category = try #require(center.category(request.category.identifier))
            #expect(category.actions == request.category.actions.map(\.identifier))
        }
    }

    @Test("Category identifiers come from the buttons: stable, shared by equal sets, distinct otherwise")
    func identifiersFromButtons() {
        let yesNo = [
            NotificationAction(identifier: "yes", title: "Yes"), NotificationAction(identifier: "no", title: "No"),
        ]
        let id = NotificationCategoryRegistry.identifier(forActions: yesNo)
        #expect(id == "binoban.actions.bebcb1398e7b6981")  // the same in every launch (no per-process seed)
        #expect(id == NotificationCategoryRegistry.identifier(forActions: yesNo))
        #expect(
            NotificationCategoryRegistry.identifier(forActions: []) == NotificationCategoryRegistry.defaultIdentifier)
        let variants: [[NotificationAction]] = [
            Array(yesNo.reversed()),
            [NotificationAction(identifier: "yes", title: "Yes!"), yesNo[1]],
            [NotificationAction(identifier: "ab", title: "c")],
            [NotificationAction(identifier: "a", title: "bc")],
        ]
        let ids = Set(([yesNo] + variants).map(NotificationCategoryRegistry.identifier(forActions:)))
        #expect(ids.count == 5)
    }

    @Test("The generic merge hands installed values back untouched and builds only the new category")
    func genericMergeKeepsInstalledValues() {
        var registry = NotificationCategoryRegistry(binobanCategoryLimit: 2)
        let host = FakePlatformCategory(identifier: "host", actions: ["a"], customDismissAction: false)
        let old = FakePlatformCategory(identifier: "binoban.actions.old", actions: ["x"], customDismissAction: true)
        var made: [String] = []
        let merged = registry.merge(
            NotificationCategory(identifier: "binoban.actions.new", actions: [], reportsDismissal: true),
            into: [host, old], identifier: \.identifier
        ) { category in
            made.append(category.identifier)
            return FakePlatformCategory(identifier: category.identifier, actions: [], customDismissAction: true)
        }
        #expect(made == ["binoban.actions.new"])
        #expect(merged.map(\.identifier) == ["host", "binoban.actions.old", "binoban.actions.new"])
        #expect(merged[0] === host && merged[1] === old)
    }

    @Test("A per-button target in userInfo resolves even when the button is not in binoban_actions")
    func unlistedButtonTarget() throws {
        let (notifications, target, _) = makeAttachedLayer()
        var userInfo = try #require(binobanUserInfo(actions: Self.buttons("buy")).objectValue)
        userInfo["binoban_action_uri_share"] = "app://share"
        userInfo["binoban_action_uri_blank"] = "  "
        notifications.onDidReceiveForwarded(userInfo: .object(userInfo), actionId: "share", dismissed: false)
        notifications.onDidReceiveForwarded(userInfo: .object(userInfo), actionId: "buy", dismissed: false)
        notifications.onDidReceiveForwarded(userInfo: .object(userInfo), actionId: "blank", dismissed: false)
        let uris = target.events.map { $0.properties["uri"]?.stringValue }
        #expect(uris == ["app://share", "app://buy", nil])

        let payload = try #require(BinobanPushPayload.parse(.object(userInfo)).payload)
        #expect(payload.actionTargets == ["share": "app://share"])
        #expect(payload.uri(forAction: "share") == "app://share")
        #expect(payload.uri(forAction: "missing") == nil)
        // The flat userInfo carries the unlisted target too, so parsing it back gives the same payload.
        #expect(BinobanPushPayload.parse(payload.userInfo()).payload == payload)
    }

    /// The seed's subclass, verbatim: no `final`, no `Sendable`, mutable state without a lock.
    class MyHandler: DefaultNotificationInteractionHandler {
        var seen = 0
        let report: ReceivedInteractions

        init(notifications: BinobanNotifications, report: ReceivedInteractions) {
            self.report = report
            super.init(notifications: notifications)
        }

        override func onNotificationInteraction(interaction: NotificationInteraction) {
            super.onNotificationInteraction(interaction: interaction)
            seen += 1
            var numbered = interaction
            numbered.reason = String(seen)
            report.append(numbered)
        }
    }

    @Test("A seed-shaped subclass keeps super's tracking and is called one interaction at a time")
    func seedShapedSubclass() async {
        let (notifications, target, _) = makeAttachedLayer()
        let report = ReceivedInteractions()
        notifications.interactionManager.setHandler(handler: MyHandler(notifications: notifications, report: report))
        let producers = 4
        let perProducer = 250
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<producers {
                group.addTask {
                    for index in 0..<perProducer {
                        notifications.onNotificationOpened(userInfo: binobanUserInfo(uuid: "p\(producer)-\(index)"))
                    }
                }
            }
        }
        let total = producers * perProducer
        // The unlocked counter saw every call exactly once, in order: the calls never overlapped.
        #expect(report.interactions.map(\.reason) == (1...total).map { String($0) })
        #expect(Set(report.interactions.map(\.notificationUuid)).count == total)
        #expect(target.eventNames.count == total)
    }

    /// An app's handler in the seed's shape that remembers what it routed, for the app to read.
    class RoutingHandler: DefaultNotificationInteractionHandler {
        var routed: [String] = []

        override func onNotificationInteraction(interaction: NotificationInteraction) {
            super.onNotificationInteraction(interaction: interaction)
            if let uri = interaction.uri { routed.append(uri) }
        }
    }

    @Test("An app keeps a reference to its handler, reads what it routed, and installs the same one again")
    func appKeepsItsHandler() {
        let (notifications, target, _) = makeAttachedLayer()
        let manager = notifications.interactionManager
        let handler = RoutingHandler(notifications: notifications)
        manager.setHandler(handler: handler)
        notifications.onDidReceiveForwarded(userInfo: binobanUserInfo(uuid: "a"), actionId: nil, dismissed: false)
        #expect(handler.routed == ["app://main"])
        manager.resetToDefault()
        notifications.onDidReceiveForwarded(userInfo: binobanUserInfo(uuid: "b"), actionId: nil, dismissed: false)
        manager.setHandler(handler: handler)
        manager.setHandler(handler: handler)
        notifications.onDidReceiveForwarded(userInfo: binobanUserInfo(uuid: "c"), actionId: nil, dismissed: false)
        #expect(handler.routed == ["app://main", "app://main"])
        // super kept the tracking for all three; the default handler tracked the one in between.
        #expect(target.eventNames == Array(repeating: "bb_notification_clicked", count: 3))
        #expect(manager.drainPendingInteractions().map(\.notificationUuid) == ["b"])
    }
}
