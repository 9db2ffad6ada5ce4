// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Interlude",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Interlude", targets: ["Interlude"]),
        .executable(name: "interlude", targets: ["InterludeCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "COpenAL",
            pkgConfig: "openal",
            providers: [.apt(["libopenal-dev"])]
        ),
        .systemLibrary(
            name: "CVorbisFile",
            pkgConfig: "vorbisfile",
            providers: [.apt(["libvorbis-dev"])]
        ),
        .target(
            name: "Interlude",
            dependencies: [
                "COpenAL",
                "CVorbisFile",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "InterludeCLI",
            dependencies: [
                "Interlude",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "InterludeTests",
            // COpenAL: the session tests read alcGetCurrentContext() directly.
            dependencies: ["Interlude", "COpenAL"],
            exclude: []
        ),
        .target(name: "ExampleSupport", dependencies: ["Interlude", .product(name: "Logging", package: "swift-log")],
                path: "examples/ExampleSupport"),
        .executableTarget(name: "Positional", dependencies: ["ExampleSupport", "Interlude"], path: "examples/Positional"),
        .executableTarget(name: "Streaming", dependencies: ["ExampleSupport", "Interlude"], path: "examples/Streaming"),
        .executableTarget(name: "Interruptions", dependencies: ["ExampleSupport", "Interlude"], path: "examples/Interruptions"),
        .executableTarget(
            name: "Showcase",
            dependencies: ["Interlude", .product(name: "Logging", package: "swift-log")],
            path: "examples/Showcase"
        ),
        // A playable terminal game prototype; ArcadeTests drive it in tmux.
        .executableTarget(name: "Arcade", dependencies: ["Interlude", .product(name: "Logging", package: "swift-log")],
                          path: "examples/Arcade"),
        // Launched by JobControlTests: an engine on the null backend that handles Ctrl-Z.
        .executableTarget(
            name: "JobControlProbe",
            dependencies: ["Interlude"],
            path: "Tests/JobControlProbe"
        ),
        .executableTarget(
            name: "AssetGenerator",
            dependencies: ["Interlude"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
