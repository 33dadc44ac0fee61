// swift-tools-version: 6.2
//
// Benchmarks for SDK Core. A nested package so that the root `swift build` / `swift test` never compile it.
// Two executables: swift run -c release --package-path Benchmarks BinobanBenchmarks (or FalconBenchmarks).

import PackageDescription

let package = Package(
    name: "sdk-core-benchmarks",
    dependencies: [.package(name: "sdk-core", path: "..")],
    targets: [
        .executableTarget(
            name: "BinobanBenchmarks",
            dependencies: [
                .product(name: "BinobanCore", package: "sdk-core"),
                .product(name: "FalconCore", package: "sdk-core"),
                .product(name: "BinobanCoreTesting", package: "sdk-core"),
                .product(name: "BinobanCoreURLSession", package: "sdk-core"),
                .product(name: "LoopbackHTTP", package: "sdk-core"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // FalconCore (issue 13): resolve, URL, execute to each terminal state, resident memory.
        .executableTarget(
            name: "FalconBenchmarks",
            dependencies: [.product(name: "FalconCore", package: "sdk-core")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
