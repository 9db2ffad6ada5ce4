/// A piece of adaptive music: named stems of one length and rate that play as one soundtrack,
/// always on the same frame, with a beat grid. Layers come in and out by their gains
/// (``SoundEngine/setGain(_:ofStem:of:fadeSeconds:curve:)``); pause, interruptions, device loss
/// and loops move every stem together.
public struct MusicTrack: Sendable, Hashable, Codable {
    /// One layer of the track: a name the game uses, and its file.
    public struct Stem: Sendable, Hashable, Codable {
        /// The stem's name within the track.
        public var name: String
        /// Its file (WAV, Ogg Vorbis, Ogg Opus, FLAC or MP3).
        public var path: String

        /// The stem `name`, played from the file at `path`.
        public init(name: String, path: String) {
            self.name = name
            self.path = path
        }
    }

    /// The track's name, in errors, logs and events.
    public var name: String
    /// Its stems, in order; one or more, with distinct names.
    public var stems: [Stem]
    /// Its beat grid; nil for music with no beat.
    public var tempo: MusicTempo?
    /// It repeats its loop region until stopped.
    public var isLooping: Bool
    /// Frames that repeat when looping, end exclusive, applied to every stem; nil: the whole track.
    public var loopRegion: Range<Int>?
    /// Starting gains by stem name (>= 0); a stem not named starts at 1.
    public var gains: [String: Float]
    /// A loudness target in LUFS, in -70...0, measured on the sum of the stems at gain 1.
    public var loudnessLUFS: Double?
    /// The game hears each beat as it is mixed (``MusicEvent/beat(_:track:position:mixFrame:)``);
    /// needs a tempo.
    public var raisesBeatEvents: Bool

    /// A track of `stems`; the rest as the properties say. Checked when it is played.
    public init(name: String, stems: [Stem], tempo: MusicTempo? = nil, isLooping: Bool = true,
                loopRegion: Range<Int>? = nil, gains: [String: Float] = [:], loudnessLUFS: Double? = nil,
                raisesBeatEvents: Bool = false) {
        self.name = name
        self.stems = stems
        self.tempo = tempo
        self.isLooping = isLooping
        self.loopRegion = loopRegion
        self.gains = gains
        self.loudnessLUFS = loudnessLUFS
        self.raisesBeatEvents = raisesBeatEvents
    }

    /// The starting gain of each stem, in order.
    var startingGains: [Float] { stems.map { gains[$0.name] ?? 1 } }

    /// Opens every stem and checks the track as ``SoundEngine/playMusic(_:channel:gain:gains:fadeSeconds:)``
    /// would: its stems, names and gains, that the stems share one rate and length, and that
    /// its tempo fits them. Errors start with `call` and name the track and the stem.
    package func validate(in call: String) throws {
        try validateShape(in: call)
        _ = try TrackStart.openStems(of: self, in: call)
    }

    /// Checks what can be checked without the files: stems, names and gains. `call` names the
    /// call in the error.
    func validateShape(in call: String) throws {
        guard !stems.isEmpty else {
            throw InterludeError(.invalidArgument, "\(call): track \"\(name)\" has no stems")
        }
        var seen: Set<String> = []
        for stem in stems where !seen.insert(stem.name).inserted {
            throw InterludeError(.invalidArgument, "\(call): track \"\(name)\" has two stems named \"\(stem.name)\"")
        }
        for (stem, gain) in gains.sorted(by: { $0.key < $1.key }) {
            guard seen.contains(stem) else {
                throw InterludeError(.invalidArgument, "\(call): track \"\(name)\" has no stem \"\(stem)\" to give a gain")
            }
            try Validate.gain(gain, in: "\(call): track \"\(name)\", stem \"\(stem)\"")
        }
        if let loudnessLUFS { try Validate.loudness(loudnessLUFS, in: call) }
        if raisesBeatEvents && tempo == nil {
            throw InterludeError(.invalidArgument, "\(call): track \"\(name)\" raises beat events but has no tempo")
        }
    }
}
