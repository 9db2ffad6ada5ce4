#if canImport(Glibc)
import Glibc
#endif

/// The peer scene as the Swift players read it from their command line
/// (`SECONDS EMITTERS MUSIC.ogg SAMPLES_OUT SOUND.wav...`, as bench/peers/peer_scene.h reads it),
/// and where its emitters go: shared by Interlude's player and the Swift floor program.
public struct PeerSceneArguments: Sendable {
    public var seconds: Double
    public var emitterCount: Int
    public var musicPath: String
    /// Where the player writes each position call's nanoseconds.
    public var samplesPath: String
    public var soundPaths: [String]

    /// Reads the scene from `arguments`; nil when they do not make one.
    public init?(_ arguments: [String]) {
        guard arguments.count >= 5, let seconds = Double(arguments[0]), seconds > 0, let emitterCount = Int(arguments[1]),
              emitterCount > 0 else { return nil }
        self.seconds = seconds
        self.emitterCount = emitterCount
        musicPath = arguments[2]
        samplesPath = arguments[3]
        soundPaths = Array(arguments[4...])
    }

    /// The usage line for a player named `name`.
    public static func usage(_ name: String) -> String {
        "usage: \(name) SECONDS EMITTERS MUSIC.ogg SAMPLES_OUT SOUND.wav...\n"
    }

    /// Ticks of 10 ms in the scene.
    public var tickCount: Int { Int(seconds * 100) }

    /// Where emitter `index` is at `tick`: bb_emitter_position (Sources/BenchBaseline) at 480
    /// frames of 48 kHz per tick, so every player moves its voices along the same paths.
    public static func emitterPosition(_ index: Int, tick: Int) -> (Float, Float, Float) {
        let seconds = Float(Double(tick * 480) / 48_000)
        let radius = 2 + Float(index % 40)
        let angle = 0.37 * Float(index) + (0.2 + 0.05 * Float(index % 17)) * seconds
        return (radius * cosf(angle), 0.5 * Float(index % 3) - 0.5, radius * sinf(angle))
    }

    /// Emitter `index`'s gain: bb_emitter_gain.
    public static func emitterGain(_ index: Int) -> Float {
        0.3 + 0.07 * Float(index % 10)
    }
}
