import Interlude

/// A scene's track of stems (top-level `tracks`, version 4), its stems by sound name, as
/// ``MusicTrack`` has it for the engine once the sounds' paths are known.
///
/// A plain value: any thread may use it.
public struct SceneTrack: Sendable, Equatable {
    /// One stem: its name in the track and the sound it plays.
    public struct Stem: Sendable, Equatable {
        public var name: String
        public var sound: String
    }

    /// The stems in file order, one or more.
    public var stems: [Stem]
    /// The beat grid.
    public var tempo: MusicTempo
    /// The stems repeat their loop until stopped.
    public var loop = true
    /// `loopStart` and `loopEnd`, when given.
    public var loopPoints: SceneLoopPoints?
    /// Starting gains by stem name.
    public var gains: [String: Float] = [:]
    /// A loudness target for the stems' sum, in LUFS.
    public var loudnessLUFS: Double?
    /// The log gets musicBeat at each beat.
    public var beatEvents = false

    /// Whether the track has a stem named `name`.
    public func hasStem(_ name: String) -> Bool { stems.contains { $0.name == name } }

    /// The engine's track, its stems' files from `sounds`, its loop in frames.
    func musicTrack(named name: String, sounds: [String: String], loopRegion: Range<Int>?) -> MusicTrack {
        MusicTrack(name: name, stems: stems.map { MusicTrack.Stem(name: $0.name, path: sounds[$0.sound]!) }, tempo: tempo,
                   isLooping: loop, loopRegion: loopRegion, gains: gains, loudnessLUFS: loudnessLUFS, raisesBeatEvents: beatEvents)
    }
}

/// A `music.play` of a track (version 4).
public struct SceneTrackPlay: Sendable, Equatable {
    public var track: String
    public var gain: Float = 1
    public var fadeInSeconds = 0.0
    /// Stem gains that override the track's, in file order.
    public var gains: [(stem: String, gain: Float)] = []
    /// A loudness target that overrides the track's.
    public var loudnessLUFS: Double?

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.track == rhs.track && lhs.gain == rhs.gain && lhs.fadeInSeconds == rhs.fadeInSeconds
            && lhs.gains.elementsEqual(rhs.gains) { $0.stem == $1.stem && $0.gain == $1.gain } && lhs.loudnessLUFS == rhs.loudnessLUFS
    }
}
