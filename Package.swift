// swift-tools-version: 6.2
//
// SDK Core: the portable Swift core of the Falcon placement SDK and the Binoban analytics SDK.
// No third-party dependencies: only the Swift toolchain.

import PackageDescription

/// Strict settings applied to every target of the package.
///
/// Swift 6 language mode (tools 6.2) already brings complete concurrency checking; these add explicit
/// `Sendable` on public types as an error, `any` for existentials and member-import visibility.
/// Warnings as errors are turned on by `.ci/run` (`-Xswiftc -warnings-as-errors`), not here, so that the
/// package stays usable as a dependency on newer compilers.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
    .treatWarning("ExplicitSendable", as: .error),
]

/// Apple platforms, where `URLSession` is part of Foundation: there the cores send beacons and upload batches
/// by default (through the shared URLSession plumbing) and ship their privacy manifests. On Linux the cores
/// link neither (FoundationEssentials only; Docs/Decisions/0103, 0203, 0110).
let applePlatforms: [Platform] = [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst]

let package = Package(
    name: "sdk-core",
    // Apple floors for async URLSession, `Duration` and `Clock`; Linux has no floor.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "FalconCore", targets: ["FalconCore"]),
        .library(name: "FalconCoreURLSession", targets: ["FalconCoreURLSession"]),
        .library(name: "FalconCoreTesting", targets: ["FalconCoreTesting"]),
        .library(name: "BinobanCore", targets: ["BinobanCore"]),
        .library(name: "BinobanCoreURLSession", targets: ["BinobanCoreURLSession"]),
        .library(name: "BinobanCoreTesting", targets: ["BinobanCoreTesting"]),
        .library(name: "SDKCoreCommon", targets: ["SDKCoreCommon"]),
        // A loopback HTTP/1.1 server for tests, demos and benchmarks of hosts that use the transports.
        .library(name: "LoopbackHTTP", targets: ["LoopbackHTTP"]),
        .executable(name: "sdkcore", targets: ["sdkcore"]),
    ],
    dependencies: [],
    targets: [
        // MARK: Shared values (JSON value type, timestamps, a small lock)
        .target(name: "SDKCoreCommon", swiftSettings: strictSettings),

        // MARK: FalconCore
        .target(
            name: "FalconCore",
            dependencies: [
                "SDKCoreCommon",
                .target(name: "CurlHTTPEngine", condition: .when(platforms: [.linux])),
                .target(name: "URLSessionTransportSupport", condition: .when(platforms: applePlatforms)),
                .target(name: "FalconCorePrivacyManifest", condition: .when(platforms: applePlatforms)),
            ],
            swiftSettings: strictSettings
        ),
        // FalconCore's PrivacyInfo.xcprivacy, in a resource-only target linked on Apple platforms only: a resource
        // makes SwiftPM generate `Bundle.module`, which imports Foundation (Docs/Decisions/0110).
        .target(
            name: "FalconCorePrivacyManifest",
            path: "Sources/PrivacyManifests/FalconCore",
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "FalconCoreURLSession",
            dependencies: ["FalconCore", "URLSessionTransportSupport"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "FalconCoreTesting", dependencies: ["FalconCore", "ScenarioSupport"], swiftSettings: strictSettings),

        // MARK: BinobanCore
        .target(
            name: "BinobanCore",
            dependencies: [
                "SDKCoreCommon",
                .target(name: "CurlHTTPEngine", condition: .when(platforms: [.linux])),
                .target(name: "CLoopTimer", condition: .when(platforms: [.linux])),
                .target(name: "CCRC32", condition: .when(platforms: [.linux])),
                .target(name: "URLSessionTransportSupport", condition: .when(platforms: applePlatforms)),
                .target(name: "BinobanCorePrivacyManifest", condition: .when(platforms: applePlatforms)),
            ],
            swiftSettings: strictSettings
        ),
        // The pipeline loop's park on Linux: a timer any thread can arm (timerfd; not a product; Decision 0230).
        .target(name: "CLoopTimer"),
        // The stored records' CRC-32 with the processor's carry-less multiply on x86-64 (not a product; Decision 0260).
        .target(name: "CCRC32"),
        // BinobanCore's PrivacyInfo.xcprivacy; Apple platforms only, as for FalconCore.
        .target(
            name: "BinobanCorePrivacyManifest",
            path: "Sources/PrivacyManifests/BinobanCore",
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BinobanCoreURLSession",
            dependencies: ["BinobanCore", "URLSessionTransportSupport"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BinobanCoreTesting", dependencies: ["BinobanCore", "ScenarioSupport"], swiftSettings: strictSettings),
        // The scenario decoders' shared error type: a test-kit type, kept out of SDKCoreCommon so that the cores'
        // re-export does not put it into every host's namespace. Not a product; the test kits re-export it.
        .target(name: "ScenarioSupport", swiftSettings: strictSettings),

        // MARK: The Linux HTTP engine: libcurl's multi interface, loaded at run time (not products; Decision 0308)
        .target(
            name: "CCurlShim",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .target(name: "CurlHTTPEngine", dependencies: ["CCurlShim", "SDKCoreCommon"], swiftSettings: strictSettings),

        // MARK: URLSession plumbing shared by both URLSession transports (not a product; links FoundationNetworking)
        .target(name: "URLSessionTransportSupport", dependencies: ["SDKCoreCommon"], swiftSettings: strictSettings),

        // MARK: A loopback HTTP/1.1 server for tests, the demo and benchmarks
        .target(name: "LoopbackHTTP", dependencies: ["SDKCoreCommon"], swiftSettings: strictSettings),

        // MARK: Command-line tool
        .executableTarget(
            name: "sdkcore",
            dependencies: [
                "FalconCore", "FalconCoreTesting", "BinobanCore", "BinobanCoreURLSession", "BinobanCoreTesting",
                "LoopbackHTTP",
            ],
            swiftSettings: strictSettings
        ),

        // MARK: A helper process for the storage tests (not a product): appends events until it is killed, holds a
        // storage, or runs an instance beside the test process
        .executableTarget(
            name: "BinobanStorageCrashWriter",
            dependencies: ["BinobanCore", "BinobanCoreURLSession"],
            path: "Tests/StorageCrashWriter",
            swiftSettings: strictSettings
        ),

        // MARK: A helper process for the transport tests (not a product): sends requests through one transport and
        // reports how each ended and what the last one cost, so that a transport that traps takes only it down
        .executableTarget(
            name: "TransportProbe",
            dependencies: ["BinobanCore", "BinobanCoreURLSession", "FalconCore", "FalconCoreURLSession"],
            path: "Tests/TransportProbe",
            swiftSettings: strictSettings
        ),

        // MARK: Tests
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strictSettings),
        .testTarget(name: "SDKCoreCommonTests", dependencies: ["SDKCoreCommon"], swiftSettings: strictSettings),
        .testTarget(
            name: "FalconCoreTests",
            dependencies: ["FalconCore", "FalconCoreTesting", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BinobanCoreTests",
            dependencies: ["BinobanCore", "BinobanCoreTesting", "TestSupport"],
            swiftSettings: strictSettings
        ),
        // Runs the built `sdkcore` executable as a subprocess (the dependency makes `swift test` build it).
        .testTarget(
            name: "SDKCoreCLITests", dependencies: ["sdkcore", "BinobanCore", "LoopbackHTTP", "TestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "TransportTests",
            dependencies: [
                "FalconCore", "FalconCoreURLSession", "BinobanCore", "BinobanCoreURLSession", "BinobanCoreTesting",
                "LoopbackHTTP", "TestSupport", "URLSessionTransportSupport", "TransportProbe",
            ],
            // The hostile peer's Python script, which the tests run from its place in the source tree.
            exclude: ["Support/hostile_peer.py"],
            swiftSettings: strictSettings
        ),
    ]
)
