/// Merges a notification's category into the platform's installed categories without ever replacing the set
/// wholesale, and keeps the SDK's own categories bounded.
///
/// iOS takes categories as one set (`setNotificationCategories`), so registering a new notification's buttons
/// means reading what is installed, merging, and writing the union back. The registry does the merge on the
/// platform's own category objects, which it passes through untouched, so no earlier category can lose its
/// buttons on the way:
/// - categories merge by identifier: the new category replaces only the one with its identifier;
/// - host categories (identifiers without ``binobanIdentifierPrefix``) are kept exactly, never removed;
/// - the SDK shares one category per distinct button set (``identifier(forActions:)``), so their number grows
///   with the distinct button layouts, not with notifications;
/// - SDK categories are kept to ``binobanCategoryLimit`` distinct button sets (64 by default) by removing the
///   least recently used ones that **no notification still uses**: a category named in `inUse` (the request's
///   ``NotificationDisplayRequest/categoriesInUse``, which the presenter reports through
///   ``NotificationPresenter/categoriesInUse()``) is never removed. When every SDK category is in use the set
///   grows past the limit instead — bounded by the notifications the platform still shows — and shrinks back to
///   the limit at the next merges as they are cleared. Installed SDK categories this registry has not seen (a
///   previous launch) count as older than any it has.
/// - Without an in-use report (`inUse` `nil`: a presenter that cannot tell) the least recently used beyond the
///   limit are removed, in use or not.
///
/// A value type with no I/O: a presenter keeps one (behind its own lock or actor) and writes the result back.
///
/// ```swift
/// var registry = NotificationCategoryRegistry()
/// let installed = await center.notificationCategories()  // Set<UNNotificationCategory>
/// let merged = registry.merge(
///     request.category, into: Array(installed), inUse: request.categoriesInUse, identifier: \.identifier
/// ) { category in
///     makePlatformCategory(category)  // UNNotificationCategory(identifier:actions:…)
/// }
/// center.setNotificationCategories(Set(merged))
/// ```
public struct NotificationCategoryRegistry: Sendable, Hashable {
    /// The identifier prefix of the categories the SDK creates.
    public static let binobanIdentifierPrefix = "binoban."
    /// The identifier prefix of the SDK's categories with buttons; the rest is derived from the buttons.
    public static let actionsIdentifierPrefix = binobanIdentifierPrefix + "actions."
    /// The shared category of pushes without buttons.
    public static let defaultIdentifier = binobanIdentifierPrefix + "default"
    /// The default cap on SDK categories (distinct button sets).
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

    /// The identifier of the SDK category for a button set: ``defaultIdentifier`` without buttons, else
    /// ``actionsIdentifierPrefix`` plus 16 hex digits of a stable 64-bit FNV-1a hash of the ids and titles in
    /// order. Equal button sets share one category, in every launch.
    public static func identifier(forActions actions: [NotificationAction]) -> String {
        guard !actions.isEmpty else { return defaultIdentifier }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            // Length-prefixed, so ("ab", "c") and ("a", "bc") differ.
            let bytes = Array(String(text.utf8.count).utf8) + [0x3A] + Array(text.utf8)
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        for action in actions {
            mix(action.identifier)
            mix(action.title)
        }
        let hex = String(hash, radix: 16)
        return actionsIdentifierPrefix + String(repeating: "0", count: 16 - hex.utf8.count) + hex
    }

    /// Returns `installed` with `category` merged in, working on the platform's own category values, without
    /// knowing which categories are in use; see ``merge(_:into:inUse:identifier:make:)``, which never removes one
    /// that is.
    public mutating func merge<Installed>(
        _ category: NotificationCategory,
        into installed: [Installed],
        identifier: (Installed) -> String,
        make: (NotificationCategory) -> Installed
    ) -> [Installed] {
        merge(category, into: installed, inUse: nil, identifier: identifier, make: make)
    }

    /// Returns `installed` with `category` merged in, working on the platform's own category values: every
    /// installed value that stays is returned as it was given (with its buttons); only `category` is built, with
    /// `make`, and it replaces its namesake.
    ///
    /// Host categories come first in their installed order, then SDK categories from least to most recently
    /// merged. Beyond ``binobanCategoryLimit`` SDK categories, the least recently merged ones that are not in
    /// `inUse` are removed until the limit is met; those in `inUse` (and `category`) always stay, so when every
    /// one is in use the result holds more than the limit. With `inUse` `nil` the least recently merged beyond
    /// the limit are removed whatever uses them.
    ///
    /// - Parameters:
    ///   - category: The category to merge in.
    ///   - installed: The platform's categories as they are installed now.
    ///   - inUse: The identifiers of the categories notifications still shown use (the request's
    ///     ``NotificationDisplayRequest/categoriesInUse``), or `nil` when unknown.
    ///   - identifier: The identifier of an installed category.
    ///   - make: Builds the platform's category for `category`.
    /// - Complexity: O(n + k²) for n installed categories and k SDK categories.
    public mutating func merge<Installed>(
        _ category: NotificationCategory,
        into installed: [Installed],
        inUse: Set<String>?,
        identifier: (Installed) -> String,
        make: (NotificationCategory) -> Installed
    ) -> [Installed] {
        guard Self.isBinobanOwned(category.identifier) else {
            // A host category merged through the registry: replace its namesake, touch nothing else.
            var result = installed
            if let replaced = installed.firstIndex(where: { identifier($0) == category.identifier }) {
                result[replaced] = make(category)
            } else {
                result.append(make(category))
            }
            return result
        }
        var hostCategories: [Installed] = []
        var binobanCategories: [String: Installed] = [:]
        for existing in installed {
            let id = identifier(existing)
            if Self.isBinobanOwned(id) {
                if binobanCategories[id] == nil { binobanCategories[id] = existing }
            } else {
                hostCategories.append(existing)
            }
        }
        binobanCategories[category.identifier] = make(category)
        let unknown = binobanCategories.keys.filter { $0 != category.identifier && !recency.contains($0) }.sorted()
        var order = unknown + recency.filter { binobanCategories[$0] != nil && $0 != category.identifier }
        order.append(category.identifier)
        if order.count > binobanCategoryLimit {
            if let inUse {
                // Oldest first, skip what a shown notification uses (and the new category, last in `order`).
                var excess = order.count - binobanCategoryLimit
                var kept: [String] = []
                kept.reserveCapacity(order.count)
                for id in order {
                    if excess > 0, id != category.identifier, !inUse.contains(id) {
                        excess -= 1
                    } else {
                        kept.append(id)
                    }
                }
                order = kept
            } else {
                order.removeFirst(order.count - binobanCategoryLimit)
            }
        }
        recency = order
        return hostCategories + order.compactMap { binobanCategories[$0] }
    }

    /// Returns `installed` with `category` merged in, for installed categories held as ``NotificationCategory``
    /// values (tests, or a platform layer that keeps them so), without knowing which are in use; see
    /// ``merge(_:into:inUse:identifier:make:)``.
    public mutating func merge(
        _ category: NotificationCategory,
        into installed: [NotificationCategory]
    ) -> [NotificationCategory] {
        merge(category, into: installed, inUse: nil, identifier: \.identifier) { $0 }
    }

    /// Returns `installed` with `category` merged in, for installed categories held as ``NotificationCategory``
    /// values, never removing one named in `inUse`; see ``merge(_:into:inUse:identifier:make:)``.
    public mutating func merge(
        _ category: NotificationCategory,
        into installed: [NotificationCategory],
        inUse: Set<String>?
    ) -> [NotificationCategory] {
        merge(category, into: installed, inUse: inUse, identifier: \.identifier) { $0 }
    }
}
