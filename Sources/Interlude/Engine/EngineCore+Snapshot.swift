extension EngineCore {
    /// The engine's state as a snapshot, with positions read from OpenAL where it still can.
    func makeSnapshot() -> Snapshot {
        withAL("snapshot") { _ in
            for stream in streams.values where stream.isAttached { try stream.syncPosition() }
        }
        let tracks = streams.values.sorted { $0.channel.rawValue < $1.channel.rawValue }.map { stream in
            Snapshot.Track(path: stream.path, channel: stream.channel, positionInFrames: stream.positionInFrames,
                           isLooping: stream.isLooping, gain: stream.gain,
                           wasPlaying: stream.state != .paused, loopRegion: stream.loopRegion)
        }
        let loopingVoices = liveVoices.filter { $0.parameters.isLooping && !$0.isSystemSound }.map { voice in
            Snapshot.LoopingVoice(soundPath: voice.sound.name, parameters: voice.parameters,
                                  positionInFrames: voice.positionInFrames, wasPlaying: voice.state != .paused)
        }
        return Snapshot(tracks: tracks, loopingVoices: loopingVoices, groupGains: groups.snapshot, listener: listener)
    }

    /// Writes the snapshot to ``SoundEngine/Configuration/statePath`` when one is set. A write
    /// failure is logged: it must never stop the audio.
    func saveSnapshotIfConfigured() {
        guard let path = configuration.statePath else { return }
        do {
            try makeSnapshot().write(to: path)
        } catch {
            logger.error("\(error)")
        }
    }
}
