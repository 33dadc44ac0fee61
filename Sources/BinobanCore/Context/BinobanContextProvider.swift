/// The static part of every event's `context`: the app, device, operating system, locale and time zone.
///
/// The SDK reads it once per instance and encodes it once. Fields left `nil` are omitted from the JSON.
public struct BinobanStaticContext: Sendable, Hashable {
    /// `context.app`.
    public struct App: Sendable, Hashable {
        /// The app's display name.
        public var name: String?
        /// The marketing version, such as `1.2`.
        public var version: String?
        /// The build number, such as `42`.
        public var build: String?
        /// The bundle identifier or package name.
        public var namespace: String?

        /// Creates an app description.
        public init(name: String? = nil, version: String? = nil, build: String? = nil, namespace: String? = nil) {
            self.name = name
            self.version = version
            self.build = build
            self.namespace = namespace
        }
    }

    /// `context.device`, without `id` and `token`, which the SDK adds.
    public struct Device: Sendable, Hashable {
        /// The manufacturer, such as `Apple`.
        public var manufacturer: String?
        /// The model identifier, such as `iPhone15,2`.
        public var model: String?
        /// The device's name.
        public var name: String?
        /// The device type, such as `ios`, `android` or `linux`.
        public var type: String?

        /// Creates a device description.
        public init(manufacturer: String? = nil, model: String? = nil, name: String? = nil, type: String? = nil) {
            self.manufacturer = manufacturer
            self.model = model
            self.name = name
            self.type = type
        }
    }

    /// `context.os`.
    public struct OperatingSystem: Sendable, Hashable {
        /// The system's name, such as `iOS` or `Linux`.
        public var name: String?
        /// The system's version.
        public var version: String?

        /// Creates an operating-system description.
        public init(name: String? = nil, version: String? = nil) {
            self.name = name
            self.version = version
        }
    }

    /// `context.app`.
    public var app: App
    /// `context.device` (the SDK adds `id` and `token`).
    public var device: Device
    /// `context.os`.
    public var os: OperatingSystem
    /// `context.locale`, such as `en-US`.
    public var locale: String?
    /// `context.timezone`, such as `Europe/Berlin`.
    public var timezone: String?

    /// Creates a static context.
    public init(
        app: App = App(),
        device: Device = Device(),
        os: OperatingSystem = OperatingSystem(),
        locale: String? = nil,
        timezone: String? = nil
    ) {
        self.app = app
        self.device = device
        self.os = os
        self.locale = locale
        self.timezone = timezone
    }
}

/// The edge through which the host describes its app and device. Called once per instance, off the caller.
public protocol BinobanContextProvider: Sendable {
    /// The app, device, OS, locale and time zone for `context`.
    func staticContext() -> BinobanStaticContext
}
