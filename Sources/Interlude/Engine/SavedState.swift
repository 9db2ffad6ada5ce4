import FoundationEssentials

/// What the engine saves on every interruption and at shutdown, so a game can pick up where the
/// player left off at the next launch: the soundtrack and its frame, the looping voices, the
/// group gains, the listener, the game parameters and the mix snapshots.
public struct SavedState: Codable, Sendable, Equatable {
    /// A streamed track as it was.
    public struct Track: Codable, Sendable, Equatable {
        /// The track's file.
        public var path: String
        /// The channel it played on.
        public var channel: StreamChannel
        /// The frame of the track it had reached.
        public var positionInFrames: Int
        /// It repeated its loop.
        public var isLooping: Bool
        /// Its own gain, before its group's.
        public var gain: Float
        /// It was playing, or held by an interruption (and so would have resumed).
        public var wasPlaying: Bool
        /// The frames that repeat, when the track had an intro before its loop
        /// (``SoundEngine/playMusic(path:channel:isLooping:gain:fadeSeconds:loopRegion:loudnessLUFS:)``);
        /// nil when the whole track loops. Absent in snapshots written before it existed.
        public var loopRegion: Range<Int>? = nil
        /// Its loudness target in LUFS
        /// (``SoundEngine/playMusic(path:channel:isLooping:gain:fadeSeconds:loopRegion:loudnessLUFS:)``),
        /// if it had one. Absent in snapshots written before it existed.
        public var loudnessLUFS: Double? = nil
        /// For a track of stems: the track, its stems' gains as they stood. nil for a plain file
        /// (and in snapshots written before tracks of stems existed).
        public var musicTrack: MusicTrack? = nil
        /// A transition that waited for its boundary, which a restore schedules again from the
        /// restored frame. nil when none waited.
        public var waitingTransition: Transition? = nil
    }

    /// A transition waiting for its boundary
    /// (``SoundEngine/transitionMusic(to:quantize:entry:fadeSeconds:channel:gain:)``).
    public struct Transition: Codable, Sendable, Equatable {
        /// The track it starts.
        public var track: MusicTrack
        /// The boundary it waited for.
        public var quantize: MusicQuantize
        /// Where the track comes in.
        public var entry: MusicEntry
        /// Its crossfade; 0 cuts.
        public var fadeSeconds: Double
        /// The gain it starts the track at.
        public var gain: Float
    }

    /// A looping voice as it was.
    public struct LoopingVoice: Codable, Sendable, Equatable {
        /// The file the voice's sound was loaded from.
        public var soundPath: String
        /// The voice's parameters: position, gain, pitch, group and so on.
        public var parameters: VoiceParameters
        /// The frame of its sound it had reached.
        public var positionInFrames: Int
        /// It was playing, not paused by the game.
        public var wasPlaying: Bool
        /// The cue that played it, if one did: restored as that cue's voice, following its
        /// curves, when the engine has made the cue. Absent in snapshots written before it existed.
        public var cueName: String? = nil
    }

    /// The format version; a snapshot of another version is refused.
    public var version = 1
    /// The streamed tracks, the soundtrack first.
    public var tracks: [Track]
    /// The looping voices (one-shots are not kept: they would be over by the next launch).
    public var loopingVoices: [LoopingVoice]
    /// Each group's gain, by group name.
    public var groupGains: [String: Float]
    /// The listener: position, velocity and orientation.
    public var listener: Listener
    /// Each global game parameter's value, by name. Absent in snapshots written before it existed.
    public var parameterValues: [String: Float]? = nil
    /// Each mix snapshot's intensity, by name. Absent in snapshots written before it existed.
    public var snapshotIntensities: [String: Float]? = nil

    /// Writes the snapshot as JSON, atomically (a temporary file renamed into place).
    public func write(to path: String) throws {
        let json: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            json = try encoder.encode(self)
        } catch {
            throw InterludeError(.writeFailed, "\(path): cannot write the state snapshot: \(error)")
        }
        try AtomicFile.write(json, to: path)
    }

    /// Reads a snapshot. Throws `.badSavedState` naming the file when it is missing or corrupt.
    public static func read(from path: String) throws -> SavedState {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InterludeError(.badSavedState, "\(path): no saved state there")
        }
        let snapshot: SavedState
        do {
            snapshot = try JSONDecoder().decode(SavedState.self, from: data)
        } catch {
            throw InterludeError(.badSavedState, "\(path): corrupt saved state: \(error)")
        }
        guard snapshot.version == 1 else {
            throw InterludeError(.badSavedState, "\(path): saved state version \(snapshot.version) is not supported")
        }
        return snapshot
    }
}
