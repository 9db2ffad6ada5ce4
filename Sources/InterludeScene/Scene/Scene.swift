import Interlude

/// A parsed, validated scene file (docs/scenes.md): the output format, the session's setup and
/// a timeline of events for `interlude render`. Made by `SceneParser`.
///
/// A plain value: any thread may use it.
public struct Scene: Sendable, Equatable {
    /// Output frames per second, in 8000...192000.
    public let sampleRate: Int
    /// Output channels: 1 or 2.
    public let channelCount: Int
    /// Seconds rendered: finite, > 0.
    public let durationSeconds: Double
    /// What the session resumes when an interruption ends.
    public let policy: ResumePolicy
    /// Binaural output; only with 2 channels.
    public let hrtf: Bool
    /// How positional voices fall off with distance.
    public let distanceModel: DistanceModel
    /// The listener's starting state, where the scene sets one.
    public let listener: ListenerChange?
    /// Sound name -> absolute path of an existing file (relative paths are resolved against
    /// the scene file's folder). The content is not checked: the engine does that on load.
    public let sounds: [String: String]
    /// The events in the order they apply: by time, and in file order at the same time.
    public let events: [SceneEvent]
    /// Reverb zones by name -> preset name (an Interlude extension: top-level `reverbZones`).
    public var reverbZones: [String: String] = [:]
    /// How every source resamples (top-level `resampler`, version 2); nil: the engine's default.
    public var resampler: Resampler?
    /// Seeds every random choice of the render (top-level `seed`, version 3).
    public var seed: UInt64 = 0
    /// Cues by name (top-level `cues`, version 3).
    public var cues: [String: SceneCue] = [:]
    /// Game parameters by name (top-level `parameters`, version 3).
    public var parameters: [String: SceneParameter] = [:]
    /// Mix snapshots by name (top-level `snapshots`, version 3).
    public var snapshots: [String: SceneMixSnapshot] = [:]
    /// The output passes through OpenAL Soft's peak limiter (top-level `limiter`, version 3).
    public var limiter = false
    /// Tracks of stems by name (top-level `tracks`, version 4).
    public var tracks: [String: SceneTrack] = [:]

    /// Frames rendered: `round(durationSeconds x sampleRate)`.
    public var frameCount: Int { frame(ofSeconds: durationSeconds) }

    /// Some event names an interruption `source` (version 2): the log then says which source
    /// began and ended each interruption. Without one, the log is as under version 1.
    public var namesInterruptionSources: Bool {
        events.contains { event in
            switch event.action {
            case .interruptionBegin(_, let source?), .interruptionEnd(_, let source?): source.isEmpty == false
            default: false
            }
        }
    }

    /// The output frame at which something at `seconds` takes effect: `round(seconds x sampleRate)`.
    /// `seconds` must be finite and small enough for the frame to fit an `Int`; every time in a
    /// parsed scene is (at most a day).
    public func frame(ofSeconds seconds: Double) -> Int {
        Self.frame(ofSeconds: seconds, sampleRate: sampleRate)
    }

    static func frame(ofSeconds seconds: Double, sampleRate: Int) -> Int {
        Int((seconds * Double(sampleRate)).rounded())
    }
}
