// swift-tools-version: 6.2
//
// libFuzzer targets for every parser of untrusted input in SDK Core. A nested package, so the
// root `swift build` / `swift test` never compile it. Build and run:
//
//   swift build -c release -Xswiftc -sanitize=fuzzer,address --package-path Fuzz
//   Fuzz/run.sh 60        # every target for 60 seconds, on a copy of its seed corpus
//
// Both sanitizers go in one -Xswiftc flag: SwiftPM's --sanitize keeps only its last value, which would leave
// the targets without coverage instrumentation. Each target is an executable whose entry point is
// `LLVMFuzzerTestOneInput` (`@_cdecl`); its `main.swift` hands it to libFuzzer's `LLVMFuzzerRunDriver`, because
// SwiftPM renames an executable's `main` and libFuzzer's own `main` would never run.

import PackageDescription

/// One fuzz target: an executable named `fuzz-<name>` in `Sources/<name>`, with its seeds in `Corpus/<name>`.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport", "CLibFuzzer"] + dependencies,
        swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    )
}

let sdk = "sdk-core"

let package = Package(
    name: "sdk-core-fuzz",
    dependencies: [.package(name: sdk, path: "..")],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "SDKCoreCommon", package: sdk)],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        fuzzTarget("FuzzJSONParser", [.product(name: "SDKCoreCommon", package: sdk)]),
        fuzzTarget("FuzzJSONConversion", [.product(name: "SDKCoreCommon", package: sdk)]),
        fuzzTarget(
            "FuzzFalconBridge",
            [.product(name: "FalconCore", package: sdk), .product(name: "FalconCoreTesting", package: sdk)]),
        fuzzTarget(
            "FuzzFalconAttributes",
            [.product(name: "FalconCore", package: sdk), .product(name: "FalconCoreTesting", package: sdk)]),
        fuzzTarget("FuzzPushPayload", [.product(name: "BinobanCore", package: sdk)]),
        fuzzTarget("FuzzBatchStorage", [.product(name: "BinobanCore", package: sdk)]),
        fuzzTarget("FuzzIdentityFile", [.product(name: "BinobanCore", package: sdk)]),
        fuzzTarget("FuzzHTTPRequest", [.product(name: "LoopbackHTTP", package: sdk)]),
        fuzzTarget(
            "FuzzGzip",
            [
                .product(name: "BinobanCore", package: sdk), .product(name: "BinobanCoreTesting", package: sdk),
                .product(name: "SDKCoreCommon", package: sdk),
            ]),
    ]
)
