import Interlude

/// What a render looked like over time, for `interlude render --plot`: each channel's level in
/// 10 ms windows, the spans when output was interrupted or the device lost, and the events.
public struct RenderTimeline: Sendable, Equatable {
    /// A span of the render when the session was not active.
    public struct Region: Sendable, Equatable {
        public enum Kind: String, Sendable { case interruption, deviceLoss }
        public var startSeconds: Double
        public var endSeconds: Double
        public var kind: Kind
        /// e.g. "interrupted: call" or "device lost".
        public var label: String
    }

    /// An event of the scene, marked on the time axis.
    public struct Marker: Sendable, Equatable {
        /// What a marker stands for, which the plot draws apart.
        public enum Kind: Sendable, Equatable {
            /// A session, music or voice event.
            case event
            /// A voice or the listener moved or changed (`set`, `listener`): routine, and many.
            case move
            /// A cue played, a parameter moved, a mix snapshot started or stopped.
            case soundDesign
        }

        public var seconds: Double
        /// The event's `do`, e.g. "music.play", with the cue, parameter or snapshot it names.
        public var label: String
        public var kind: Kind = .event
    }

    /// One stem's level over the render, heard alone (`interlude render --plot-stems`).
    public struct StemLevel: Sendable, Equatable {
        /// The stem's name in its tracks.
        public var name: String
        /// RMS level per window in dBFS, over every channel; silence is -120.
        public var levelsDBFS: [Float]

        public init(name: String, levelsDBFS: [Float]) {
            self.name = name
            self.levelsDBFS = levelsDBFS
        }
    }

    public var sampleRate: Int
    public var channelCount: Int
    public var durationSeconds: Double
    /// Length of one level window in seconds (0.01).
    public var windowSeconds: Double
    /// RMS level per window in dBFS, one array per channel; silence is -120.
    public var levelsDBFS: [[Float]]
    public var regions: [Region]
    public var markers: [Marker]
    /// Where the bars of a track with beat events start, in seconds (version 4).
    public var barSeconds: [Double] = []
    /// Each stem's level heard alone, when the plot asks for them.
    public var stemLevels: [StemLevel] = []

    public init(sampleRate: Int, channelCount: Int, durationSeconds: Double, windowSeconds: Double,
                levelsDBFS: [[Float]], regions: [Region], markers: [Marker]) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.durationSeconds = durationSeconds
        self.windowSeconds = windowSeconds
        self.levelsDBFS = levelsDBFS
        self.regions = regions
        self.markers = markers
    }

    /// The floor used for digital silence.
    public static let silenceDBFS: Float = -120
}
