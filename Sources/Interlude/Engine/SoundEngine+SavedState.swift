extension SoundEngine {
    /// Puts back what a ``SavedState`` saved, so a game picks up where the player left off: the
    /// listener, the group gains, the game parameters' values and the mix snapshots' intensities
    /// (make them first, by loading the same cue bank, say), each track at its saved frame (playing if it was playing or
    /// held by an interruption, otherwise loaded and paused there) and each looping voice at its
    /// frame (its sound loaded again from its path; a cue's voice as that cue's own, following
    /// its curves, when the cue has been made).
    ///
    /// Restoring does not stop what already plays: call it on a fresh engine. Each track and
    /// voice is restored on its own: one that fails (a file gone since the snapshot was saved, a
    /// frame past the end of a shorter file) is skipped, the rest are restored, and then the call
    /// throws an error with the first failure's code whose message names every item that could
    /// not be restored. A missing or corrupt snapshot file is ``SavedState/read(from:)``'s
    /// `.badSavedState`: the game then starts fresh. Any thread.
    public func restore(_ state: SavedState) throws {
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
        attempt { try setListener(state.listener) }
        for (group, gain) in state.groupGains.sorted(by: { $0.key < $1.key }) {
            attempt { try setGain(gain, of: makeGroup(named: group)) }
        }
        // Parameters and snapshots before the voices, so that curves start where they were.
        for (name, value) in (state.parameterValues ?? [:]).sorted(by: { $0.key < $1.key }) {
            attempt { try setParameter(value, of: name) }
        }
        for (name, intensity) in (state.snapshotIntensities ?? [:]).sorted(by: { $0.key < $1.key }) {
            let call = "restore(snapshot \"\(name)\")"
            attempt { try withCore(call) { try $0.soundDesign.restoreIntensity(intensity, of: name, call: call) } }
        }
        for track in state.tracks {
            attempt {
                _ = try playStream(path: track.path, channel: track.channel, isLooping: track.isLooping,
                                   gain: track.gain, fadeInSeconds: 0, loopRegion: nil, crossfadeSeconds: nil,
                                   call: "restore(\(track.path))", loudnessLUFS: track.loudnessLUFS,
                                   startFrame: track.positionInFrames,
                                   startsPaused: !track.wasPlaying)
            }
        }
        var loaded: [String: Sound] = [:]
        for voice in state.loopingVoices {
            attempt {
                try makeGroup(named: voice.parameters.group.name)
                let sound = try loaded[voice.soundPath] ?? loadSound(path: voice.soundPath)
                loaded[voice.soundPath] = sound
                _ = try withCore("restore(\(voice.soundPath))") { core in
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
        if let first = failures.first {
            let list = failures.map(\.message).joined(separator: "; ")
            throw InterludeError(first.code, "restore: \(failures.count) item(s) not restored: \(list)")
        }
    }
}
