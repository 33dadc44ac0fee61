#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The Falcon placement SDK, with the same calls as the iOS SDK 1.3.1.
///
/// ```swift
/// Falcon.initSdk(apiKey: "YOUR_API_KEY")
/// Falcon.execute(
///     attributes: [
///         "user_details": ["email": "user@example.com"],
///         "placement_details": ["layout_id": "APP_NATIVE_ESSENTIAL_0.1", "view": "ORDER_STATUS"],
///     ],
///     placement: .inline(surface),
///     onLoad: { print("loaded") }
/// )
/// ```
///
/// Every static call delegates to ``shared``, a ``FalconClient``. Install a client with platform edges at
/// launch (`Falcon.shared = FalconClient(dependencies: …)`); tests create their own clients instead.
public enum Falcon: Sendable {
    /// The SDK version, `"1.3.1"`; sent as `sdkv` in beacons.
    public static let version = "1.3.1"

    private static let sharedClient = LockedValue(FalconClient())

    /// The client behind the static calls. Replace it before the first `initSdk` to install edges.
    public static var shared: FalconClient {
        get { sharedClient.withLock { $0 } }
        set { sharedClient.withLock { $0 = newValue } }
    }

    /// Receives every diagnostic; held strongly. Setting it changes nothing else.
    public static var diagnosticsDelegate: (any FalconDiagnosticsDelegate)? {
        get { shared.diagnosticsDelegate }
        set { shared.diagnosticsDelegate = newValue }
    }

    /// Initializes the SDK with the default configuration. Call once at launch.
    ///
    /// Diagnostic beacons are on by default. On Apple platforms the default client sends them with
    /// `URLSession`, on Linux with ``CurlBeaconTransport`` (libcurl). To send them another way, install a client
    /// with your transport first:
    ///
    /// ```swift
    /// Falcon.shared = FalconClient(dependencies: .init(beaconTransport: CurlBeaconTransport(timeout: .seconds(5))))
    /// Falcon.initSdk(apiKey: "YOUR_API_KEY")
    /// ```
    public static func initSdk(apiKey: String) {
        shared.initSdk(apiKey: apiKey)
    }

    /// Initializes the SDK with `config`; a later call affects executions started after it. Beacons: see
    /// ``initSdk(apiKey:)``.
    public static func initSdk(apiKey: String, config: FalconConfig) {
        shared.initSdk(apiKey: apiKey, config: config)
    }

    /// Executes a placement with `[String: Any]` attributes; see ``FalconClient``.
    public static func execute(
        attributes: [String: Any],
        placement: FalconPlacement,
        style: FalconStyle? = nil,
        onLoad: @escaping @Sendable () -> Void = {},
        onUnload: @escaping @Sendable () -> Void = {},
        onError: @escaping @Sendable (any Error) -> Void = { _ in },
        onShouldShowLoadingIndicator: @escaping @Sendable () -> Void = {},
        onShouldHideLoadingIndicator: @escaping @Sendable () -> Void = {},
        isSandbox: Bool = false
    ) {
        let client = shared
        client.start(
            FalconExecuteRequest(
                attributes: client.convert(attributes), placement: placement, style: style, onLoad: onLoad,
                onUnload: onUnload, onError: onError, onShouldShowLoadingIndicator: onShouldShowLoadingIndicator,
                onShouldHideLoadingIndicator: onShouldHideLoadingIndicator, isSandbox: isSandbox))
    }

    /// Executes a placement with `JSONValue` attributes; see ``FalconClient``.
    public static func execute(
        attributes: JSONValue,
        placement: FalconPlacement,
        style: FalconStyle? = nil,
        onLoad: @escaping @Sendable () -> Void = {},
        onUnload: @escaping @Sendable () -> Void = {},
        onError: @escaping @Sendable (any Error) -> Void = { _ in },
        onShouldShowLoadingIndicator: @escaping @Sendable () -> Void = {},
        onShouldHideLoadingIndicator: @escaping @Sendable () -> Void = {},
        isSandbox: Bool = false
    ) {
        shared.start(
            FalconExecuteRequest(
                attributes: attributes, placement: placement, style: style, onLoad: onLoad, onUnload: onUnload,
                onError: onError, onShouldShowLoadingIndicator: onShouldShowLoadingIndicator,
                onShouldHideLoadingIndicator: onShouldHideLoadingIndicator, isSandbox: isSandbox))
    }

    /// Starts an execution with `[String: Any]` attributes on the executor's next turn, for SwiftUI-style
    /// wrappers; see ``FalconClient``'s `executeOnNextTurn`. Cancel the returned handle when the view unmounts.
    @discardableResult
    public static func executeOnNextTurn(
        attributes: [String: Any],
        placement: FalconPlacement,
        style: FalconStyle? = nil,
        onLoad: @escaping @Sendable () -> Void = {},
        onUnload: @escaping @Sendable () -> Void = {},
        onError: @escaping @Sendable (any Error) -> Void = { _ in },
        onShouldShowLoadingIndicator: @escaping @Sendable () -> Void = {},
        onShouldHideLoadingIndicator: @escaping @Sendable () -> Void = {},
        isSandbox: Bool = false
    ) -> FalconPendingExecution {
        shared.executeOnNextTurn(
            attributes: attributes, placement: placement, style: style, onLoad: onLoad, onUnload: onUnload,
            onError: onError, onShouldShowLoadingIndicator: onShouldShowLoadingIndicator,
            onShouldHideLoadingIndicator: onShouldHideLoadingIndicator, isSandbox: isSandbox)
    }

    /// Starts an execution with `JSONValue` attributes on the executor's next turn; see the `[String: Any]`
    /// overload.
    @discardableResult
    public static func executeOnNextTurn(
        attributes: JSONValue,
        placement: FalconPlacement,
        style: FalconStyle? = nil,
        onLoad: @escaping @Sendable () -> Void = {},
        onUnload: @escaping @Sendable () -> Void = {},
        onError: @escaping @Sendable (any Error) -> Void = { _ in },
        onShouldShowLoadingIndicator: @escaping @Sendable () -> Void = {},
        onShouldHideLoadingIndicator: @escaping @Sendable () -> Void = {},
        isSandbox: Bool = false
    ) -> FalconPendingExecution {
        shared.executeOnNextTurn(
            attributes: attributes, placement: placement, style: style, onLoad: onLoad, onUnload: onUnload,
            onError: onError, onShouldShowLoadingIndicator: onShouldShowLoadingIndicator,
            onShouldHideLoadingIndicator: onShouldHideLoadingIndicator, isSandbox: isSandbox)
    }

    /// Registers the events handler for `layoutId`, replacing any previous one.
    public static func events(layoutId: String, handler: @escaping @Sendable (FalconEvent) -> Void) {
        shared.events(layoutId: layoutId, handler: handler)
    }

    /// Removes the events handler for `layoutId`.
    public static func removeEventsHandler(layoutId: String) {
        shared.removeEventsHandler(layoutId: layoutId)
    }
}
