import BinobanCore
import Testing

@Suite("Push notification category registry")
struct PushCategoryRegistryTests {
    private func binoban(_ id: String, actions: [String] = []) -> NotificationCategory {
        NotificationCategory(
            identifier: "binoban.actions.\(id)",
            actions: actions.map { NotificationAction(identifier: $0, title: $0.uppercased()) },
            reportsDismissal: true
        )
    }

    @Test("Registering a category never removes earlier categories")
    func mergesNotReplaces() {
        var registry = NotificationCategoryRegistry()
        let host = NotificationCategory(
            identifier: "chat.reply", actions: [NotificationAction(identifier: "reply", title: "Reply")])
        var installed = [host]
        installed = registry.merge(binoban("n1", actions: ["a"]), into: installed)
        installed = registry.merge(binoban("n2", actions: ["b"]), into: installed)
        #expect(installed.map(\.identifier) == ["chat.reply", "binoban.actions.n1", "binoban.actions.n2"])
        #expect(installed.first == host)
    }

    @Test("Categories merge by identifier: the same id is replaced, and becomes the most recent")
    func sameIdReplaced() {
        var registry = NotificationCategoryRegistry()
        var installed: [NotificationCategory] = []
        installed = registry.merge(binoban("n1", actions: ["a"]), into: installed)
        installed = registry.merge(binoban("n2"), into: installed)
        installed = registry.merge(binoban("n1", actions: ["x", "y"]), into: installed)
        #expect(installed.map(\.identifier) == ["binoban.actions.n2", "binoban.actions.n1"])
        #expect(installed.last?.actions.map(\.identifier) == ["x", "y"])
    }

    @Test("Binoban categories are capped, least recently merged first; host categories are never touched")
    func capKeepsHostCategories() {
        var registry = NotificationCategoryRegistry(binobanCategoryLimit: 3)
        let hosts = (0..<5).map { NotificationCategory(identifier: "host.\($0)") }
        var installed = hosts
        for index in 0..<10 { installed = registry.merge(binoban("n\(index)"), into: installed) }
        #expect(Array(installed.prefix(5)) == hosts)
        #expect(
            installed.dropFirst(5).map(\.identifier) == [
                "binoban.actions.n7", "binoban.actions.n8", "binoban.actions.n9",
            ])
        #expect(NotificationCategoryRegistry().binobanCategoryLimit == 64)
        #expect(NotificationCategoryRegistry(binobanCategoryLimit: 0).binobanCategoryLimit == 1)
    }

    @Test("Installed Binoban categories the registry has not seen (a previous launch) are evicted first")
    func unknownInstalledEvictedFirst() {
        var registry = NotificationCategoryRegistry(binobanCategoryLimit: 2)
        let previousLaunch = [binoban("old-b"), NotificationCategory(identifier: "host"), binoban("old-a")]
        let installed = registry.merge(binoban("new"), into: previousLaunch)
        #expect(installed.map(\.identifier) == ["host", "binoban.actions.old-b", "binoban.actions.new"])
    }

    @Test("With an in-use report, only categories no shown notification uses are evicted, oldest first")
    func inUseCategoriesAreNeverEvicted() {
        var registry = NotificationCategoryRegistry(binobanCategoryLimit: 3)
        var installed = [NotificationCategory(identifier: "host")]
        for index in 0..<3 { installed = registry.merge(binoban("n\(index)"), into: installed, inUse: []) }
        // n0 and n1 are shown, n2 was cleared: n2 goes although n0 is older.
        let inUse: Set = ["binoban.actions.n0", "binoban.actions.n1"]
        installed = registry.merge(binoban("n3"), into: installed, inUse: inUse)
        #expect(
            installed.map(\.identifier) == ["host", "binoban.actions.n0", "binoban.actions.n1", "binoban.actions.n3"])
        // Every one in use (n3 too): the set grows past the limit instead of removing buttons.
        installed = registry.merge(binoban("n4"), into: installed, inUse: inUse.union(["binoban.actions.n3"]))
        #expect(installed.count == 1 + 4)
        // Cleared again: back to the limit, the least recently merged unused ones first.
        installed = registry.merge(binoban("n5"), into: installed, inUse: ["binoban.actions.n1"])
        #expect(
            installed.map(\.identifier) == ["host", "binoban.actions.n1", "binoban.actions.n4", "binoban.actions.n5"])
        // Without a report, the plain cap.
        installed = registry.merge(binoban("n6"), into: installed, inUse: nil)
        #expect(
            installed.map(\.identifier) == ["host", "binoban.actions.n4", "binoban.actions.n5", "binoban.actions.n6"])
    }

    @Test("An unknown installed category (a previous launch) still in use survives; unused ones go first")
    func unknownInstalledInUseSurvives() {
        var registry = NotificationCategoryRegistry(binobanCategoryLimit: 2)
        let previousLaunch = [binoban("old-b"), binoban("old-a"), binoban("old-c")]
        let installed = registry.merge(binoban("new"), into: previousLaunch, inUse: ["binoban.actions.old-a"])
        #expect(installed.map(\.identifier) == ["binoban.actions.old-a", "binoban.actions.new"])
    }

    @Test("A host category merged through the registry replaces only its namesake and is never capped")
    func hostCategoryMerge() {
        var registry = NotificationCategoryRegistry(binobanCategoryLimit: 1)
        var installed = [
            NotificationCategory(identifier: "host", actions: [NotificationAction(identifier: "a", title: "A")])
        ]
        installed = registry.merge(binoban("n1"), into: installed)
        installed = registry.merge(NotificationCategory(identifier: "host"), into: installed)
        installed = registry.merge(NotificationCategory(identifier: "host.2"), into: installed)
        #expect(installed.map(\.identifier) == ["host", "binoban.actions.n1", "host.2"])
        #expect(installed.first?.actions == [])
        #expect(NotificationCategoryRegistry.isBinobanOwned("binoban.default"))
        #expect(!NotificationCategoryRegistry.isBinobanOwned("Binoban.x"))
    }
}
