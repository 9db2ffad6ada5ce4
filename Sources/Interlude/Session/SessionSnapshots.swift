/// The engine's state as a snapshot (``SavedState``): the tracks, the looping voices, the group
/// gains, the listener, the game parameters and the mix snapshots; and its hand-off to the
/// ``SnapshotWriter`` when a ``SoundEngine/Configuration/statePath`` is set.
final class SessionSnapshots {
    private let voices: VoiceSources
    private let streams: StreamSet
    private let mixer: GroupMixer
    private let world: SpatialWorld
    /// The game parameters and mix snapshots, and which cue started each voice.
    private let design: SoundDesign
    /// Writes the snapshots off the engine lock; nil without a state path.
    private let writer: SnapshotWriter?

    init(voices: VoiceSources, streams: StreamSet, mixer: GroupMixer, world: SpatialWorld, design: SoundDesign,
         writer: SnapshotWriter?) {
        self.voices = voices
        self.streams = streams
        self.mixer = mixer
        self.world = world
        self.design = design
        self.writer = writer
    }

    /// The engine's state as a snapshot, with positions read from OpenAL where it still can.
    func makeSnapshot() -> SavedState {
        let parameterValues = design.parameterValues, snapshotIntensities = design.snapshotIntensities
        return SavedState(tracks: streams.savedTracks(), loopingVoices: voices.savedLoopingVoices(cueName: design.cueName(of:)),
                          groupGains: mixer.gainsByName, listener: world.listener,
                          parameterValues: parameterValues.isEmpty ? nil : parameterValues,
                          snapshotIntensities: snapshotIntensities.isEmpty ? nil : snapshotIntensities)
    }

    /// Hands the snapshot to the writer when a state path is set: built here, under the engine
    /// lock; encoded and written on the writer's queue. A write failure is logged there: it must
    /// never stop the audio.
    func saveIfConfigured() {
        guard let writer else { return }
        writer.submit(makeSnapshot())
    }
}
