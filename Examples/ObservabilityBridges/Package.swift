// swift-tools-version: 6.0
// An example, not part of SDK Core: bridges from SDK Core's log hook and metrics observer to swift-log and
// swift-metrics. It depends on those packages, which SDK Core itself never does, so CI does not build it; build
// it on a machine that can fetch packages with `swift build --package-path Examples/ObservabilityBridges`.
import PackageDescription

let package = Package(
    name: "ObservabilityBridges",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        .package(name: "sdk-core", path: "../.."),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
    ],
    targets: [
        .target(
            name: "ObservabilityBridges",
            dependencies: [
                .product(name: "BinobanCore", package: "sdk-core"),
                .product(name: "FalconCore", package: "sdk-core"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        )
    ]
)
