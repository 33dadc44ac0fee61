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
