// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Interlude",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Interlude", targets: ["Interlude"]),
        // The tools around the engine: scene files, offline rendering, WAV writing, plots and
        // the device report. A game links only `Interlude`.
        .library(name: "InterludeScene", targets: ["InterludeScene"]),
        .executable(name: "interlude", targets: ["InterludeCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `make docs`: the DocC catalog in Sources/Interlude/Interlude.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
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
        // libFLAC and libmpg123: headers only (libflac-dev, libmpg123-dev; no pkgConfig, whose
        // libraries SwiftPM would link): the engine loads them itself (CDecoderLibraries), as it
        // does libopusfile.
        .systemLibrary(name: "CFLAC"),
        .systemLibrary(name: "CMPG123"),
        // sd-bus linked directly, for the logind stub the tests run (the engine loads it itself).
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // libpulse and sd-bus, for the desktop's interruption sources: their headers
        // (libpulse-dev, libsystemd-dev), and the libraries loaded with dlopen when a source
        // first needs them, never linked (see its header).
        .target(name: "CDesktopLibraries"),
        // The decoders' libraries, loaded with dlopen when a file of theirs is first opened,
        // never linked by the engine (see its header).
        .target(name: "CDecoderLibraries", dependencies: ["CFLAC", "CMPG123"]),
        // libebur128: integrated loudness (ITU-R BS.1770-4 / EBU R128) and true peak.
        .systemLibrary(
            name: "CEBUR128",
            pkgConfig: "libebur128",
            providers: [.apt(["libebur128-dev"])]
        ),
        // glibc's fopencookie for the debug-only decoder fault layer (no library to link).
        .systemLibrary(name: "CStdioCookie"),
        .target(
            name: "Interlude",
            dependencies: [
                "COpenAL",
                "CStdioCookie",
                "CDesktopLibraries",
                "CDecoderLibraries",
                "CVorbisFile",
                "CFLAC",
                "CMPG123",
                "CEBUR128",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "InterludeScene",
            dependencies: [
                "Interlude",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "InterludeCLI",
            dependencies: [
                "Interlude",
                "InterludeScene",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "InterludeTests",
            // COpenAL: the session tests read alcGetCurrentContext() directly; CEBUR128: the loudness
            // tests compare with one libebur128 state.
            dependencies: ["Interlude", "InterludeScene", "COpenAL", "CEBUR128", "SoakScenario"],
            exclude: []
        ),
        .target(name: "ExampleSupport", dependencies: ["Interlude", "InterludeScene", .product(name: "Logging", package: "swift-log")],
                path: "examples/ExampleSupport"),
        .executableTarget(name: "Positional", dependencies: ["ExampleSupport", "Interlude"], path: "examples/Positional"),
        .executableTarget(name: "Streaming", dependencies: ["ExampleSupport", "Interlude"], path: "examples/Streaming"),
        .executableTarget(name: "Interruptions", dependencies: ["ExampleSupport", "Interlude"], path: "examples/Interruptions"),
        // Reliability: the soak scene (shared by `make soak` and a short test), its runner, and
        // the lifecycle that `make leaks` runs under valgrind.
        .target(
            name: "SoakScenario",
            dependencies: ["Interlude", "InterludeScene"],
            path: "Tests/SoakScenario"
        ),
        .executableTarget(
            name: "Soak",
            dependencies: ["SoakScenario"],
            path: "Tests/Soak"
        ),
        .executableTarget(
            name: "LeakProbe",
            dependencies: ["Interlude", "InterludeScene"],
            path: "Tests/LeakProbe"
        ),
        .executableTarget(
            name: "Showcase",
            dependencies: ["ExampleSupport", "Interlude", "InterludeScene", .product(name: "Logging", package: "swift-log")],
            path: "examples/Showcase"
        ),
        // A playable terminal game prototype; ArcadeTests drive it in tmux.
        .executableTarget(name: "Arcade", dependencies: ["ExampleSupport", "Interlude", "InterludeScene",
                                                         .product(name: "Logging", package: "swift-log")],
                          path: "examples/Arcade", exclude: ["arcade-bank.json"]),
        // Launched by JobControlTests: an engine on the null backend that handles Ctrl-Z.
        .executableTarget(
            name: "JobControlProbe",
            dependencies: ["Interlude"],
            path: "Tests/JobControlProbe"
        ),
        // Launched by the logind source tests: a stand-in logind on a private system bus.
        .executableTarget(name: "LogindStub", dependencies: ["CSystemd"], path: "Tests/LogindStub"),
        .executableTarget(name: "PulseProbe", dependencies: ["Interlude", .product(name: "Logging", package: "swift-log")], path: "Tests/PulseProbe"),
        // Launched by DriverThreadTests: an engine released, and so shut down, on its own driver thread.
        .executableTarget(name: "DriverReleaseProbe", dependencies: ["Interlude"], path: "Tests/DriverReleaseProbe"),
        // Launched by LifecycleProbeTests: a game's start and end in a process of its own.
        .executableTarget(name: "LifecycleProbe", dependencies: ["Interlude"], path: "Tests/LifecycleProbe"),
        // Launched by FoundationFreeTests: a game importing the engine alone, which maps no Foundation.
        .executableTarget(name: "FoundationFreeGame", dependencies: ["Interlude"], path: "Tests/FoundationFreeGame"),
        .executableTarget(
            name: "AssetGenerator",
            dependencies: ["Interlude", "InterludeScene"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
