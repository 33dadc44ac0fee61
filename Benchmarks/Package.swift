// swift-tools-version: 6.2
//
// Benchmarks for SDK Core. A nested package so that the root `swift build` / `swift test` never compile it.
// Two executables: swift run -c release --package-path Benchmarks BinobanBenchmarks (or FalconBenchmarks).

import PackageDescription

let package = Package(
    name: "sdk-core-benchmarks",
    dependencies: [.package(name: "sdk-core", path: "..")],
    targets: [
        // What both executables share (a lock: the package's own is not public).
        .target(name: "BenchmarkSupport"),
        .executableTarget(
            name: "BinobanBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "BinobanCore", package: "sdk-core"),
                .product(name: "FalconCore", package: "sdk-core"),
                .product(name: "BinobanCoreTesting", package: "sdk-core"),
                .product(name: "BinobanCoreURLSession", package: "sdk-core"),
                .product(name: "LoopbackHTTP", package: "sdk-core"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // The Linux libcurl transport beside URLSession: CPU per upload on a kept connection, CPU while one waits.
        .executableTarget(
            name: "TransportBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "BinobanCore", package: "sdk-core"),
                .product(name: "BinobanCoreURLSession", package: "sdk-core"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // FalconCore: resolve, URL, execute to each terminal state, resident memory.
        .executableTarget(
            name: "FalconBenchmarks",
            dependencies: ["BenchmarkSupport", .product(name: "FalconCore", package: "sdk-core")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
