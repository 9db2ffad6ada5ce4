import Logging

/// What plays, as the session holds and resumes it and as the device changes under it: the
/// voices and the streams record where they stand, pause together and are marked held; a device
/// that goes takes every AL name with it, the positions staying in the model; a new one is given
/// the sounds; on the way back what resumes plays together, in one call. ``SessionController``
/// runs it for an interruption, ``OutputRouter`` for a loss, a rebuild or a switch.
final class HeldPlayback {
    private let logger: Logger
    private let gate: ALGate
    private let voices: VoiceSources
    private let streams: StreamSet
    private let renderer: ALRenderer
    private let sounds: SoundBank
    /// The listener, distance model and doppler, sent again on the way back.
    private let world: SpatialWorld

    init(logger: Logger, gate: ALGate, voices: VoiceSources, streams: StreamSet,
         renderer: ALRenderer, sounds: SoundBank, world: SpatialWorld) {
        self.logger = logger
        self.gate = gate
        self.voices = voices
        self.streams = streams
        self.renderer = renderer
        self.sounds = sounds
        self.world = world
    }

    /// Before an interruption stops output: a one-shot that played out since the last update is
    /// over, not held; every playing voice and stream records the frame OpenAL reached, and
    /// their sources pause in one call.
    func recordAndPause() {
        voices.removePlayedOutOneShots()
        gate.run("beginInterruption") { _ in
            try renderer.pause(voices.recordPlayingPositions() + streams.recordPlayingPositions())
        }
    }

    /// Marks what is playing as held by the session, and drops system sounds. Returns the
    /// events that say where the soundtrack was held.
    func hold() -> [MusicEvent] {
        voices.holdForSession()
        return streams.holdForSession()
    }

    /// Brings OpenAL in line with the model after an interruption or a rebuild: deferred
    /// releases, every sound on the device, parameters changed meanwhile, then replays held and
    /// pending voices and streams.
    func resume(resumesHeld: Bool) -> ResumeSummary {
        var summary = ResumeSummary(music: false, voiceCount: 0)
        gate.run("resume after interruption") { _ in
            try voices.releaseDeferred()
            // A new device (a rebuild, a switch) gets every sound; on the same one, they are there.
            try sounds.uploadAll()
            dropLostSounds()
            // A new device has none of the world, and it may have changed meanwhile.
            try SpatialRenderer.sendAll(of: world)
            try streams.releaseFinishedOutgoing()
            // What resumes plays together, in one call.
            var slotsToPlay: [RenderSlot] = []
            summary.voiceCount = try voices.resume(resumesHeld: resumesHeld, into: &slotsToPlay)
            summary.music = try streams.resume(resumesHeld: resumesHeld, into: &slotsToPlay)
            try renderer.play(slotsToPlay)
            try voices.assignSources()
        }
        return summary
    }

    /// Before a device goes while it still answers: a one-shot that played out since the last
    /// update is over, and every playing voice and stream records the frame OpenAL reached.
    func recordPositions() {
        voices.removePlayedOutOneShots()
        gate.run("record positions") { _ in
            _ = try voices.recordPlayingPositions()
            _ = try streams.recordPlayingPositions()
        }
    }

    /// The device is going: every voice, stream and sound forgets its AL names (the model keeps
    /// the positions). The caller closes the device after.
    func forgetDevice() {
        voices.forgetDevice()
        streams.forgetDevice()
        renderer.forgetDevice()
        sounds.forgetDevice()
    }

    /// What a new device is given, decoded and uploaded off the engine lock
    /// (``DevicePreparation``): every loaded sound.
    var soundUploads: [SoundBank.Upload] { sounds.uploads }

    /// Before a switch tears the old device down: the sounds loaded since the new device was
    /// prepared (not among `prepared`) keep their samples, read back from the old device's
    /// buffers, so that the new one gets them.
    func keepSoundsMissing(from prepared: Set<Int>) {
        gate.run("keep sounds the new device lacks") { _ in try sounds.keepSamplesMissing(from: prepared) }
    }

    /// A new device's sounds, uploaded off the lock, become the engine's; those it found lost
    /// go with their voices.
    func adoptSounds(of prepared: DevicePreparation) {
        sounds.adopt(prepared.buffers, lost: prepared.lostSounds,
                     mapsBuffers: prepared.opened?.opened.extensions.bufferMapping != nil)
        dropLostSounds()
    }

    /// Buffers made for a device that will not be installed go with it.
    func forgetSounds() {
        sounds.forgetDevice()
    }

    /// Sounds whose file changed or vanished before a new device could decode them again: their
    /// voices go (silent from the loss on), and the game is told.
    private func dropLostSounds() {
        for (sound, reason) in sounds.takeLostSounds() {
            logger.warning("\(reason)")
            voices.dropLost(sound, reason: reason)
        }
    }
}
