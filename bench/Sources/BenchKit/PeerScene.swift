import Foundation

/// The real-time scene of the peers scenario: `emitterCount` looping positional voices (the
/// bench's sounds in turn, as 16-bit WAV files) moved every 10 ms on the game thread, and the
/// Ogg soundtrack streamed and looping, for `seconds` of wall time. Every player (Interlude and
/// the peer harnesses in bench/peers) reads it from the same command line:
/// `SECONDS EMITTERS MUSIC.ogg SAMPLES_OUT SOUND.wav...` (bench/peers/peer_scene.h is the C side).
public struct PeerScene: Sendable, Equatable {
    /// Wall seconds the game loop runs.
    public var seconds: Double
    /// Looping positional voices, each moved every 10 ms.
    public var emitterCount: Int
    /// The Ogg Vorbis soundtrack, streamed and looping.
    public var musicPath: String
    /// Mono WAV files, given to the voices in turn.
    public var soundPaths: [String]

    /// A scene of `emitterCount` voices over `soundPaths` and the `musicPath` soundtrack, for `seconds`.
    public init(seconds: Double, emitterCount: Int, musicPath: String, soundPaths: [String]) {
        self.seconds = seconds
        self.emitterCount = emitterCount
        self.musicPath = musicPath
        self.soundPaths = soundPaths
    }

    /// Position updates the scene makes: one per voice per 10 ms tick.
    public var positionCallCount: Int { tickCount * emitterCount }

    /// 10 ms ticks in `seconds`.
    public var tickCount: Int { Int(seconds * 100) }

    /// The command line every player takes, with the file the latency samples go to.
    public func arguments(samplesPath: String) -> [String] {
        [String(seconds), String(emitterCount), musicPath, samplesPath] + soundPaths
    }
}
