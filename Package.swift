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
            dependencies: ["Interlude", "SoakScenario"],
            exclude: []
        ),
        // Reliability: the soak scene (shared by `make soak` and a short test), its runner, and
        // the lifecycle that `make leaks` runs under valgrind.
        .target(
            name: "SoakScenario",
            dependencies: ["Interlude"],
            path: "Tests/SoakScenario"
        ),
        .executableTarget(
            name: "Soak",
            dependencies: ["SoakScenario"],
            path: "Tests/Soak"
        ),
        .executableTarget(
            name: "LeakProbe",
            dependencies: ["Interlude"],
            path: "Tests/LeakProbe"
        ),
        .executableTarget(
            name: "Showcase",
            dependencies: ["Interlude", .product(name: "Logging", package: "swift-log")],
            path: "examples/Showcase"
        ),
        .executableTarget(
            name: "AssetGenerator",
            dependencies: ["Interlude"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
