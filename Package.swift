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
        .executable(name: "InterludeBench", targets: ["InterludeBench"]),
        .executable(name: "BenchFloor", targets: ["BenchFloor"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `make docs`: the DocC catalog in Sources/Interlude/Interlude.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The bench's latency histograms (scenario 11, the peers).
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
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
        // does libopusfile, whose module is the bench's alone.
        .systemLibrary(name: "CFLAC"),
        .systemLibrary(name: "CMPG123"),
        .systemLibrary(
            name: "COpusFile",
            pkgConfig: "opusfile",
            providers: [.apt(["libopusfile-dev"])]
        ),
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
        // The raw C baseline the bench measures the engine against: OpenAL Soft and
        // libvorbisfile driven directly, in the same process; and the click-latency recorder.
        .target(
            name: "BenchBaseline",
            dependencies: ["COpenAL", "CVorbisFile", "CFLAC", "CMPG123", "COpusFile"],
            // libpulse-simple (libpulse-dev): the click-latency recorder on a private sink's monitor.
            // The codec baselines call libFLAC, libmpg123 and libopusfile directly.
            linkerSettings: [.linkedLibrary("pulse-simple"), .linkedLibrary("pulse"), .linkedLibrary("FLAC"),
                             .linkedLibrary("mpg123"), .linkedLibrary("opusfile"), .linkedLibrary("opus")]
        ),
        // Counts malloc calls by interposition; linked into the bench executable only.
        .target(
            name: "MallocCounter"
        ),
        // The peer scene's game loop and /proc readings, Foundation alone: shared by Interlude's
        // player in the bench and the Swift floor program, which links no audio library.
        .target(name: "PeerLoop"),
        // Scenario 11's Swift floor: the peer scene's loop with no audio library.
        .executableTarget(name: "BenchFloor", dependencies: ["PeerLoop"]),
        // Scenario 11's Interlude player: the same loop with the engine, and nothing of the bench.
        .executableTarget(name: "InterludePlayer", dependencies: ["Interlude", "PeerLoop"]),
        // The bench scenarios, shared by the bench executable and the smoke tests.
        .target(
            name: "BenchKit",
            dependencies: ["Interlude", "InterludeScene", "BenchBaseline", "PeerLoop",
                           .product(name: "Histogram", package: "hdrhistogram-swift")]
        ),
        .executableTarget(
            name: "InterludeBench",
            dependencies: ["BenchKit", "Interlude", "MallocCounter"]
        ),
        .testTarget(
            name: "InterludeTests",
            // COpenAL: the session tests read alcGetCurrentContext() directly; CEBUR128: the loudness
            // tests compare with one libebur128 state.
            dependencies: ["Interlude", "InterludeScene", "COpenAL", "CEBUR128", "BenchKit", "PeerLoop", "SoakScenario"],
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
