// swift-tools-version:6.0
import PackageDescription

/// One set of compiler settings for every target: Swift 6 mode is the package default here.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// The layers, each a target so that the compiler keeps them (docs/architecture.md):
//
//   PropsCatalog          pure core: components, view, projections, JSON, schema, sessions
//   StorybookUI           the browser UI of Public/, embedded at build time (EmbedBrowserUI plugin)
//   StorybookReview       check, export, diff, JUnit, static site: file work, no libwebsockets
//   StorybookTransport    the libwebsockets binding: bytes in and out, knows nothing of Props or JSON
//   StorybookServer       the app: story hub, HTTP routes, WebSocket protocol, journal
//   StorybookCLI          the command line any catalog's executable runs (`StorybookCLI.main`)
//   StorybookClient       for apps: connects to a server as a renderer (no UI, no server code)
let package = Package(
    name: "Storybook",
    // Synchronization.Mutex: macOS 15, iOS 18. iOS is for apps that use StorybookClient (and
    // PropsCatalog); the server targets need libwebsockets and are for macOS and Linux.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "PropsCatalog", targets: ["PropsCatalog"]),
        .library(name: "StorybookReview", targets: ["StorybookReview"]),
        .library(name: "StorybookServer", targets: ["StorybookServer"]),
        .library(name: "StorybookCLI", targets: ["StorybookCLI"]),
        .library(name: "StorybookClient", targets: ["StorybookClient"]),
        .library(name: "DemoCatalog", targets: ["DemoCatalog"]),
        .executable(name: "storybook", targets: ["storybook"]),
        .executable(name: "storybook-review", targets: ["storybook-review"]),
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
            providers: [.apt(["libwebsockets-dev"]), .brew(["libwebsockets"])]
        ),
        .executableTarget(name: "embed-browser-ui", path: "Sources/EmbedBrowserUITool", swiftSettings: strictSettings),
        .plugin(name: "EmbedBrowserUI", capability: .buildTool(), dependencies: ["embed-browser-ui"]),
        .target(name: "StorybookUI", swiftSettings: strictSettings, plugins: ["EmbedBrowserUI"]),
        .target(
            name: "StorybookReview",
            dependencies: [
                "PropsCatalog",
                "StorybookUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "StorybookTransport",
            dependencies: ["CLibWebSockets", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "StorybookServer",
            dependencies: [
                "PropsCatalog",
                "StorybookUI",
                "StorybookReview",
                "StorybookTransport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "StorybookCLI",
            dependencies: [
                "PropsCatalog",
                "StorybookReview",
                "StorybookServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "StorybookClient",
            dependencies: [
                "PropsCatalog",
                // libwebsockets' client mode where Foundation has no WebSocket; URLSession on Apple platforms.
                .target(name: "StorybookTransport", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: strictSettings
        ),
        .target(name: "DemoCatalog", dependencies: ["PropsCatalog"], swiftSettings: strictSettings),
        .executableTarget(
            name: "storybook",
            dependencies: ["StorybookCLI", "DemoCatalog"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "storybook-review",
            dependencies: ["StorybookReview", "DemoCatalog"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PropsCatalogTests",
            dependencies: ["PropsCatalog", "DemoCatalog"],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "StorybookClientTests", dependencies: ["StorybookClient"], swiftSettings: strictSettings),
        .testTarget(
            name: "StorybookServerTests",
            dependencies: ["StorybookServer", "StorybookReview", "StorybookTransport", "StorybookCLI", "StorybookUI", "DemoCatalog"],
            swiftSettings: strictSettings
        ),
    ]
)
