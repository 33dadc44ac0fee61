#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A context provider that describes the running process without platform frameworks: the process name as
/// app name, the operating system from `ProcessInfo`, the locale from `LANG`, and the time zone from
/// `TimeZone.current`.
///
/// ``DefaultContextProvider`` uses it on Apple platforms. A server that wants its own host described in
/// every event sets it explicitly: `config.contextProvider = ProcessContextProvider()`.
public struct ProcessContextProvider: BinobanContextProvider {
    /// Creates the provider.
    public init() {}

    /// Describes the current process and system.
    public func staticContext() -> BinobanStaticContext {
        let info = ProcessInfo.processInfo
        let environment = info.environment
        #if os(Linux)
        let systemName = "Linux"
        let deviceType = "linux"
        #elseif os(macOS)
        let systemName = "macOS"
        let deviceType = "macos"
        #elseif os(iOS)
        let systemName = "iOS"
        let deviceType = "ios"
        #else
        let systemName = "unknown"
        let deviceType = "unknown"
        #endif
        let version = info.operatingSystemVersion
        return BinobanStaticContext(
            app: .init(name: info.processName),
            device: .init(type: deviceType),
            os: .init(
                name: systemName, version: "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"),
            locale: Self.locale(fromLanguage: environment["LC_ALL"] ?? environment["LANG"]),
            timezone: TimeZone.current.identifier
        )
    }

    /// `en_US.UTF-8` → `en-US`; `C`, `POSIX` and blank → `nil`.
    static func locale(fromLanguage language: String?) -> String? {
        guard let language, !language.isEmpty else { return nil }
        let base = language.split(separator: ".").first.map(String.init) ?? language
        let tag = String((base.split(separator: "@").first.map(String.init) ?? base).map { $0 == "_" ? "-" : $0 })
        return tag == "C" || tag == "POSIX" || tag.isEmpty ? nil : tag
    }
}
