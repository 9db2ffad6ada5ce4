/// Puts a ``SavedState`` back on an engine, item by item: the steps behind
/// ``SoundEngine/restore(_:)``. It goes through the engine's own calls, so files are read and
/// tracks opened outside the engine's lock; an item that fails is noted and the rest go on.
struct SavedStateRestore {
    private let engine: SoundEngine

    init(engine: SoundEngine) {
        self.engine = engine
    }

    /// Restores everything `state` saved, in the order ``SoundEngine/restore(_:)`` documents;
    /// then throws one error, with the first failure's code, naming every item not restored.
    func run(_ state: SavedState) throws {
        var failures: [InterludeError] = []
        func attempt(_ body: () throws -> Void) {
            do {
                try body()
            } catch let error as InterludeError {
                failures.append(error)
            } catch {
                failures.append(InterludeError(.invalidArgument, "\(error)"))
            }
        }
        attempt { try engine.setListener(state.listener) }
        for (group, gain) in state.groupGains.sorted(by: { $0.key < $1.key }) {
            attempt { try engine.setGain(gain, of: engine.makeGroup(named: group)) }
        }
        // Parameters and snapshots before the voices, so that curves start where they were.
        for (name, value) in (state.parameterValues ?? [:]).sorted(by: { $0.key < $1.key }) {
            attempt { try engine.setParameter(value, of: name) }
        }
        for (name, intensity) in (state.snapshotIntensities ?? [:]).sorted(by: { $0.key < $1.key }) {
            let call = "restore(snapshot \"\(name)\")"
            attempt { try engine.withCore(call) { try $0.soundDesign.restoreIntensity(intensity, of: name, call: call) } }
        }
        for track in state.tracks {
            attempt { try restore(track) }
        }
        // The sounds loaded again for looping voices, by path: each file is read once.
        var loaded: [String: Sound] = [:]
        for voice in state.loopingVoices {
            attempt { try restore(voice, loaded: &loaded) }
        }
        if let first = failures.first {
            let list = failures.map(\.message).joined(separator: "; ")
            throw InterludeError(first.code, "restore: \(failures.count) item(s) not restored: \(list)")
        }
    }

    /// A streamed track at its frame, playing or paused as it was: a plain file, or a track of
    /// stems at their gains, with the transition that waited for its boundary scheduled again.
    private func restore(_ track: SavedState.Track) throws {
        let start = TrackStart(engine: engine)
        guard let musicTrack = track.musicTrack else {
            _ = try start.play(path: track.path, channel: track.channel, isLooping: track.isLooping, gain: track.gain,
                               fadeInSeconds: 0, loopRegion: track.loopRegion, crossfadeSeconds: nil,
                               call: "restore(\(track.path))", loudnessLUFS: track.loudnessLUFS,
                               startFrame: track.positionInFrames, startsPaused: !track.wasPlaying)
            return
        }
        _ = try start.play(track: musicTrack, channel: track.channel, gain: track.gain, gains: [:], fadeInSeconds: 0,
                           crossfadeSeconds: nil, call: "restore(\(musicTrack.name))", startFrame: track.positionInFrames,
                           startsPaused: !track.wasPlaying)
        if let waiting = track.waitingTransition {
            _ = try start.transition(to: waiting.track, channel: track.channel, gain: waiting.gain, quantize: waiting.quantize,
                                     entry: waiting.entry, fadeSeconds: waiting.fadeSeconds,
                                     call: "restore(transition to \(waiting.track.name))")
        }
    }

    /// A looping voice at its frame, its sound loaded again from its path: a cue's voice as that
    /// cue's own when the cue has been made, else a plain one.
    private func restore(_ voice: SavedState.LoopingVoice, loaded: inout [String: Sound]) throws {
        try engine.makeGroup(named: voice.parameters.group.name)
        let sound = try loaded[voice.soundPath] ?? engine.loadSound(path: voice.soundPath)
        loaded[voice.soundPath] = sound
        _ = try engine.withCore("restore(\(voice.soundPath))") { core in
            if let cue = voice.cueName,
               let handle = try core.soundDesign.restoreVoice(ofCue: cue, sound: sound, parameters: voice.parameters,
                                                              startFrame: voice.positionInFrames, startsPaused: !voice.wasPlaying) {
                return handle
            }
            return try core.voices.play(sound, parameters: voice.parameters, origin: .play,
                                        startFrame: voice.positionInFrames, startsPaused: !voice.wasPlaying)
        }
    }
}
