/// Merges a notification's category into the platform's installed categories without ever replacing the set
/// wholesale, and keeps the SDK's own categories bounded.
///
/// iOS takes categories as one set (`setNotificationCategories`), so registering a new notification's buttons
/// means reading what is installed, merging, and writing the union back. The registry does the merge:
/// - categories merge by identifier: the new category replaces only the one with its identifier;
/// - host categories (identifiers without ``binobanIdentifierPrefix``) are kept exactly, never removed;
/// - SDK categories are capped at ``binobanCategoryLimit`` (64 by default); the least recently merged go
///   first, and installed SDK categories this registry has not seen count as older than any it has.
///
/// A value type with no I/O: a presenter keeps one (behind its own lock or actor) and writes the result back.
///
/// ```swift
/// var registry = NotificationCategoryRegistry()
/// let installed = await currentCategories()  // read from UNUserNotificationCenter
/// let merged = registry.merge(request.category, into: installed)
/// install(merged)  // setNotificationCategories
/// ```
public struct NotificationCategoryRegistry: Sendable, Hashable {
    /// The identifier prefix of the categories the SDK creates.
    public static let binobanIdentifierPrefix = "binoban."
    /// The default cap on SDK categories.
    public static let defaultBinobanCategoryLimit = 64

    /// The most SDK categories kept after a merge (at least 1).
    public let binobanCategoryLimit: Int
    /// SDK category identifiers, least recently merged first.
    private var recency: [String] = []

    /// Creates a registry keeping at most `binobanCategoryLimit` SDK categories.
    public init(binobanCategoryLimit: Int = NotificationCategoryRegistry.defaultBinobanCategoryLimit) {
        self.binobanCategoryLimit = max(1, binobanCategoryLimit)
    }

    /// Whether `identifier` names a category the SDK created.
    public static func isBinobanOwned(_ identifier: String) -> Bool {
        identifier.utf8.starts(with: binobanIdentifierPrefix.utf8)
    }

    /// Returns `installed` with `category` merged in: host categories first in their installed order, then SDK
    /// categories from least to most recently merged, at most ``binobanCategoryLimit`` of them.
    ///
    /// - Complexity: O(n + k²) for n installed categories and k SDK categories (k ≤ the limit).
    public mutating func merge(
        _ category: NotificationCategory,
        into installed: [NotificationCategory]
    ) -> [NotificationCategory] {
        var hostCategories: [NotificationCategory] = []
        var binobanCategories: [String: NotificationCategory] = [:]
        for existing in installed {
            if Self.isBinobanOwned(existing.identifier) {
                binobanCategories[existing.identifier] = existing
            } else if existing.identifier != category.identifier {
                hostCategories.append(existing)
            }
        }
        guard Self.isBinobanOwned(category.identifier) else {
            // A host category merged through the registry: replace its namesake, touch nothing else.
            let replaced = installed.firstIndex { $0.identifier == category.identifier }
            var result = installed
            if let replaced { result[replaced] = category } else { result.append(category) }
            return result
        }
        binobanCategories[category.identifier] = category
        let unknown = binobanCategories.keys.filter { $0 != category.identifier && !recency.contains($0) }.sorted()
        var order = unknown + recency.filter { binobanCategories[$0] != nil && $0 != category.identifier }
        order.append(category.identifier)
        if order.count > binobanCategoryLimit { order.removeFirst(order.count - binobanCategoryLimit) }
        recency = order
        return hostCategories + order.compactMap { binobanCategories[$0] }
    }
}
