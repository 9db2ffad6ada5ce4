// swift-tools-version:6.0
import PackageDescription

// The bench (`make bench`), its raw C baselines, its peers' players and its smoke tests: a
// package of its own beside the engine's, as swift-nio keeps its benchmarks, so that a game
// depending on Interlude resolves none of what only the bench uses.
let package = Package(
    name: "InterludeBench",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "InterludeBench", targets: ["InterludeBench"]),
        .executable(name: "BenchFloor", targets: ["BenchFloor"]),
        .executable(name: "InterludePlayer", targets: ["InterludePlayer"]),
    ],
    dependencies: [
        .package(name: "Interlude", path: ".."),
        // The latency histograms (scenario 11, the peers).
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        .systemLibrary(
            name: "COpusFile",
            pkgConfig: "opusfile",
            providers: [.apt(["libopusfile-dev"])]
        ),
        // The raw C baseline the bench measures the engine against: OpenAL Soft and
        // libvorbisfile driven directly, in the same process; and the click-latency recorder.
        .target(
            name: "BenchBaseline",
            dependencies: ["COpusFile"],
            // libpulse-simple (libpulse-dev): the click-latency recorder on a private sink's monitor.
            // The codec baselines call libFLAC, libmpg123 and libopusfile directly.
            linkerSettings: [.linkedLibrary("openal"), .linkedLibrary("vorbisfile"), .linkedLibrary("vorbis"),
                             .linkedLibrary("ogg"), .linkedLibrary("pulse-simple"), .linkedLibrary("pulse"),
                             .linkedLibrary("FLAC"), .linkedLibrary("mpg123"), .linkedLibrary("opusfile"),
                             .linkedLibrary("opus")]
        ),
        // Counts malloc calls by interposition; linked into the bench executable only.
        .target(name: "MallocCounter"),
        // The peer scene's game loop and /proc readings, Foundation alone: shared by Interlude's
        // player in the bench and the Swift floor program, which links no audio library.
        .target(name: "PeerLoop"),
        // Scenario 11's Swift floor: the peer scene's loop with no audio library.
        .executableTarget(name: "BenchFloor", dependencies: ["PeerLoop"]),
        // Scenario 11's Interlude player: the same loop with the engine, and nothing of the bench.
        .executableTarget(name: "InterludePlayer", dependencies: [.product(name: "Interlude", package: "Interlude"), "PeerLoop"]),
        // The bench scenarios, shared by the bench executable and the smoke tests.
        .target(
            name: "BenchKit",
            dependencies: [.product(name: "Interlude", package: "Interlude"), .product(name: "InterludeScene", package: "Interlude"),
                           "BenchBaseline", "PeerLoop", .product(name: "Histogram", package: "hdrhistogram-swift")]
        ),
        .executableTarget(
            name: "InterludeBench",
            dependencies: ["BenchKit", .product(name: "Interlude", package: "Interlude"), "MallocCounter"]
        ),
        // The bench's code paths at a tiny size (`make test` runs them), and the generated tables.
        .testTarget(
            name: "InterludeBenchTests",
            dependencies: ["BenchKit", .product(name: "Interlude", package: "Interlude"), "PeerLoop"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
