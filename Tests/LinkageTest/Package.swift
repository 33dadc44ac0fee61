// swift-tools-version: 6.2
// A nested package that links both cores into one executable; `.ci/linkage.sh` checks that the
// binary loads FoundationEssentials and neither Foundation nor FoundationNetworking.

import PackageDescription

let package = Package(
    name: "LinkageTest",
    dependencies: [.package(name: "sdk-core", path: "../..")],
    targets: [
        .executableTarget(
            name: "LinkageCheck",
            dependencies: [
                .product(name: "FalconCore", package: "sdk-core"),
                .product(name: "BinobanCore", package: "sdk-core"),
            ]
        )
    ]
)
