// swift-tools-version:6.0
import PackageDescription

// A storybook of your own: one executable target that depends on the storybook package.
// `package:` names the dependency by its identity: for a path dependency the last component of the
// path (here the repository's directory, whatever a clone calls it, so the dependency is named
// explicitly), for a URL dependency the repository's name (`.package(url: ".../storybook", ...)`
// is `package: "storybook"`).
let package = Package(
    name: "TasksStorybook",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "storybook", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "tasks-storybook",
            dependencies: [
                .product(name: "PropsCatalog", package: "storybook"),
                .product(name: "StorybookCLI", package: "storybook"),
            ],
            path: "Sources/TasksStorybook"
        ),
    ]
)
