// swift-tools-version:6.0
import PackageDescription

/// One set of compiler settings for every target: Swift 6 mode is the package default here.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Storybook",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "PropsCatalog", targets: ["PropsCatalog"]),
        .library(name: "StorybookServer", targets: ["StorybookServer"]),
        .executable(name: "storybook", targets: ["storybook"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .target(name: "PropsCatalog", swiftSettings: strictSettings),
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        .target(
            name: "StorybookServer",
            dependencies: [
                "PropsCatalog",
                "CLibWebSockets",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .target(name: "DemoCatalog", dependencies: ["PropsCatalog"], swiftSettings: strictSettings),
        .executableTarget(
            name: "storybook",
            dependencies: ["StorybookServer", "DemoCatalog"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PropsCatalogTests",
            dependencies: ["PropsCatalog", "DemoCatalog"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StorybookServerTests",
            dependencies: ["StorybookServer", "DemoCatalog"],
            swiftSettings: strictSettings
        ),
    ]
)
