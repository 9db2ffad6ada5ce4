import Foundation

/// One player of the peers scenario: an executable that plays a ``PeerScene`` in its own process
/// (a harness in bench/peers, InterludePlayer, or a floor program) and prints its figures.
public struct PeerPlayer: Sendable {
    /// The library's name and version, as the table shows it.
    public var name: String
    /// How this player plays the scene, where it differs from the others.
    public var method: String
    /// The program that plays the scene.
    public var executable: URL
    /// Arguments before the scene's own.
    public var leadingArguments: [String]
    /// Environment entries added to the bench's: the audio driver that outputs nothing.
    public var environment: [String: String]
    /// The language whose floor program this player is measured above (or, for a floor, its own).
    public var language: Language
    /// A floor program: the scene's game loop with no audio library, which plays nothing.
    public var isFloor: Bool

    /// The language a player is written in, as far as its floor goes.
    public enum Language: String, Sendable {
        /// Swift with Foundation.
        case swift = "Swift"
        /// C or C++ (the C harnesses' libraries link libstdc++ too, SFML and ALURE being C++).
        case cpp = "C++"
    }

    /// A player run as `executable leadingArguments... SCENE...` with `environment` added.
    public init(name: String, method: String, executable: URL, leadingArguments: [String] = [], environment: [String: String],
                language: Language = .cpp, isFloor: Bool = false) {
        self.name = name
        self.method = method
        self.executable = executable
        self.leadingArguments = leadingArguments
        self.environment = environment
        self.language = language
        self.isFloor = isFloor
    }

    /// Interlude, played by InterludePlayer in `folder` (built next to the bench): updated by
    /// its driver thread, or with `updatesOnGameThread` by the game loop calling `update()`
    /// after moving the voices (`--game-update`, the driver thread off).
    public static func interlude(folder: URL, updatesOnGameThread: Bool = false) -> PeerPlayer {
        let executable = folder.appendingPathComponent("InterludePlayer")
        if updatesOnGameThread {
            return PeerPlayer(name: "Interlude, game-loop update",
                              method: "setPosition per voice, then update() on the game thread; no driver thread; OpenAL Soft null backend",
                              executable: executable, leadingArguments: ["--game-update"],
                              environment: ["ALSOFT_DRIVERS": "null"], language: .swift)
        }
        return PeerPlayer(name: "Interlude", method: "setPosition per voice; driver thread updates; OpenAL Soft null backend",
                          executable: executable, environment: ["ALSOFT_DRIVERS": "null"], language: .swift)
    }

    /// The floor programs that exist: BenchFloor (Swift importing Foundation) in `swiftFolder`,
    /// floor-peer (C++) in `peersFolder`, each the peer scene's game loop with no audio library.
    public static func floors(swiftFolder: URL, peersFolder: URL?) -> [PeerPlayer] {
        var floors = [PeerPlayer(name: "Swift floor", method: "the same loop, Foundation imported, no audio library",
                                 executable: swiftFolder.appendingPathComponent("BenchFloor"), environment: [:],
                                 language: .swift, isFloor: true)]
        if let peersFolder {
            floors.append(PeerPlayer(name: "C++ floor", method: "the same loop (peer_scene.h), libstdc++ linked, no audio library",
                                     executable: peersFolder.appendingPathComponent("floor-peer"), environment: [:],
                                     language: .cpp, isFloor: true))
        }
        return floors.filter { FileManager.default.isExecutableFile(atPath: $0.executable.path) }
    }

    /// The peer harnesses bench/peers/build.sh puts in `folder`, those that exist.
    public static func peers(in folder: URL) -> [PeerPlayer] {
        let openAL = ["ALSOFT_DRIVERS": "null"]
        let all = [
            PeerPlayer(name: "SFML 2.5", method: "sf::Sound::setPosition; sf::Music streams; OpenAL Soft null backend",
                       executable: folder.appendingPathComponent("sfml-peer"), environment: openAL),
            PeerPlayer(name: "SDL2_mixer 2.6", method: "no 3D: Mix_SetPosition (angle, distance 255(1-1/d)); Mix_PlayMusic; SDL dummy driver, 16-bit, 1024-frame chunks",
                       executable: folder.appendingPathComponent("sdl-mixer-peer"), environment: ["SDL_AUDIODRIVER": "dummy"]),
            PeerPlayer(name: "ALURE 1.2", method: "alSource3f; alurePlaySourceStream 4 x 200 ms, alureUpdateInterval 10 ms; OpenAL Soft null backend",
                       executable: folder.appendingPathComponent("alure-peer"), environment: openAL),
        ]
        return all.filter { FileManager.default.isExecutableFile(atPath: $0.executable.path) }
    }

    /// Plays `scene` in a child process and checks it played: every voice and the soundtrack
    /// still playing at the end, every position call timed, and, where the player counts what it
    /// mixed, at least half the frames real time would give. A floor plays nothing: only its
    /// calls are checked.
    public func run(_ scene: PeerScene, samplesPath: String) throws -> PeerResult {
        let text = try BenchChild.output(of: executable, arguments: leadingArguments + scene.arguments(samplesPath: samplesPath),
                                         extra: environment, name: "\(name) (\(executable.path))")
        let samples = try Data(contentsOf: URL(fileURLWithPath: samplesPath)).withUnsafeBytes { Array($0.bindMemory(to: Int64.self)) }
        let result = try PeerResult(output: text, samplesNanoseconds: samples)
        guard result.positionCallCount == scene.positionCallCount, samples.count == scene.positionCallCount,
              isFloor || (result.voicesPlaying == scene.emitterCount && result.isMusicPlaying) else {
            throw BenchError("\(name) did not play the whole scene (\(scene.positionCallCount) calls, \(scene.emitterCount) voices and the soundtrack expected): \(text)")
        }
        // A driver that counts what it mixed (SDL's post-mix callback) must have mixed in real time.
        if let mixed = result.extras["mixed_frames"], mixed < result.audioSeconds * Double(result.sampleRate) / 2 {
            throw BenchError("\(name) mixed only \(Int(mixed)) frames in \(result.audioSeconds) s at \(result.sampleRate) Hz: its output did not run in real time")
        }
        return result
    }
}
