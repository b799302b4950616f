// swift-tools-version:6.0
import PackageDescription

// A renderer of your own: an executable that connects to a running `storybook serve` with the client
// library and renders the story the browser picks. This one renders headlessly (the library's own text
// projection) so it runs anywhere; an app does the same with its real views (SwiftUIRenderer.swift).
// It follows the demo catalog's components, whose Props types it shares with the server.
let package = Package(
    name: "HeadlessRenderer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "storybook", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "headless-renderer",
            dependencies: [
                .product(name: "StorybookClient", package: "storybook"),
                .product(name: "PropsCatalog", package: "storybook"),
                .product(name: "DemoCatalog", package: "storybook"),
            ],
            path: "Sources/HeadlessRenderer"
        ),
    ]
)
