import Logging

/// The audio session's procedures: an interruption's begin and end, `activate()`, resuming what
/// was held (after an end, and after ``OutputRouter`` rebuilt or switched the device), and the
/// snapshots. It decides with ``AudioSession``, changes the context through ``DeviceHost``, and
/// has the voices and streams (both ``SessionHeld``) record, hold and resume themselves.
final class SessionController {
    private let logger: Logger
    private let session: AudioSession
    private let host: DeviceHost
    private let gate: ALGate
    private let events: EventQueue
    private let voices: VoiceSources
    private let renderer: ALRenderer
    private let streams: StreamSet
    private let sounds: SoundBank
    private let mixer: GroupMixer
    private let world: SpatialWorld
    /// The game parameters and mix snapshots, for the saved state.
    private let design: SoundDesign
    /// Writes the snapshots off the engine lock; nil without a ``SoundEngine/Configuration/statePath``.
    private let snapshots: SnapshotWriter?

    init(logger: Logger, session: AudioSession, host: DeviceHost, gate: ALGate, events: EventQueue, voices: VoiceSources,
         renderer: ALRenderer, streams: StreamSet, sounds: SoundBank, mixer: GroupMixer, world: SpatialWorld,
         design: SoundDesign, snapshots: SnapshotWriter?) {
        self.logger = logger
        self.session = session
        self.host = host
        self.gate = gate
        self.events = events
        self.voices = voices
        self.renderer = renderer
        self.streams = streams
        self.sounds = sounds
        self.mixer = mixer
        self.world = world
        self.design = design
        self.snapshots = snapshots
    }

    /// Active, or interrupted and why.
    var state: SessionState { session.state }

    /// Nothing holds the session (``state`` is `.active`), read without building the state.
    var isActive: Bool { session.isActive }

    // MARK: Interruptions

    /// The sources holding the session now, oldest first.
    var holders: [InterruptionSource] { session.holders }

    /// A begin from `source`. From active: record what plays, stop output, NULL the context,
    /// tell the game. `outlivesActivation`: the source observes its condition, and `activate()`
    /// keeps its hold. While interrupted: one more hold (nothing audible), or, from a source
    /// that already holds, absorbed.
    func begin(reason: InterruptionReason, source: InterruptionSource, outlivesActivation: Bool = false) {
        guard session.isActive else {
            switch session.begin(reason: reason, source: source, outlivesActivation: outlivesActivation) {
            case .absorbed, .began: events.emit(.absorbed(reason: reason))
            case .holdAdded: events.emit(.holdAdded(reason: reason, source: source))
            }
            return
        }
        // 0. A one-shot that played out since the last update is over, not held.
        voices.removePlayedOutOneShots()
        // 1. Record: every playing voice and stream, at the frame OpenAL reached.
        // 2. Stop output: pause all their sources in one call.
        gate.run("beginInterruption") { _ in
            try renderer.pause(voices.recordPlayingPositions() + streams.recordPlayingPositions())
        }
        let held = holdPlaying()
        _ = session.begin(reason: reason, source: source, outlivesActivation: outlivesActivation)
        // 2b, 3. Pause the device where it can be, suspend the context and make NULL current.
        host.deactivate()
        // 4. Tell the game: began, then where the soundtrack was held.
        events.emit(.began(reason: reason, source: source))
        for event in held { events.emit(event) }
        saveSnapshotIfConfigured()
    }

    /// Marks what is playing as held by the session, and drops system sounds. Returns the
    /// events that say where the soundtrack was held.
    func holdPlaying() -> [MusicEvent] {
        voices.holdForSession()
        return streams.holdForSession()
    }

    /// An end from `source`. From a source that holds nothing: ignored. While other sources
    /// (or the lost device) still hold the session: that hold is let go, nothing audible. The
    /// last hold: restore the context, resume what the policy and the tracked commands say,
    /// tell the game. The session is active only once the context is current again: if it
    /// cannot be made current, the session stays interrupted, output stays stopped, and
    /// ``SessionEvent/reactivationFailed(message:)`` says why; a later end or activate tries again.
    func end(shouldResume: Bool, source: InterruptionSource) {
        let caller = "endInterruption(shouldResume: \(shouldResume), source: \(source))"
        switch session.end(source: source, shouldResume: shouldResume, by: caller) {
        case .notHeld:
            events.emit(.ignored)
        case .released:
            events.emit(.holdReleased(source: source))
        case .last(let resumesHeld):
            guard let summary = reactivate(resumesHeld: resumesHeld, caller: caller) else { return }
            events.emit(.ended(shouldResume: shouldResume, resumed: summary, source: source))
        }
    }

    /// `activate()`: the game is back (the foreground, a play button) and ends every hold given
    /// through its own calls, as an end with shouldResume. It cannot end a device loss, nor the
    /// hold of a source that still observes its condition (a phone stream still playing): those
    /// stay (``SessionEvent/holdKept(source:)``), the others are let go, and the session waits.
    func activate() {
        guard !session.isActive else {
            events.emit(.ignored)
            return
        }
        let (released, kept) = session.releaseForActivation()
        if session.isDeviceLost || !kept.isEmpty {
            if released.isEmpty && kept.isEmpty { events.emit(.ignored) }
            for source in released { events.emit(.holdReleased(source: source)) }
            for source in kept { events.emit(.holdKept(source: source)) }
            return
        }
        guard let summary = reactivate(resumesHeld: true, caller: "activate()") else { return }
        events.emit(.activated(resumed: summary))
    }

    /// Makes the context current again and, once it is, the session active, and resumes.
    /// Returns nil when the context would not go current (the session stays interrupted).
    private func reactivate(resumesHeld: Bool, caller: String) -> ResumeSummary? {
        do {
            try host.reactivate()
        } catch {
            gate.count(error, in: caller)
            host.deactivate()
            events.emit(.reactivationFailed(message: "\(caller): \(error)"))
            return nil
        }
        session.markActive()
        return resumeAfterInterruption(resumesHeld: resumesHeld)
    }

    /// Brings OpenAL in line with the model after an interruption or a rebuild: deferred
    /// releases, parameters changed meanwhile, then replays held and pending voices and streams.
    func resumeAfterInterruption(resumesHeld: Bool) -> ResumeSummary {
        var summary = ResumeSummary(music: false, voiceCount: 0)
        gate.run("resume after interruption") { _ in
            try voices.releaseDeferred()
            // A new device (a rebuild, a switch) gets every sound; on the same one, they are there.
            try sounds.uploadAll()
            dropLostSounds()
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

    /// Sounds whose file changed or vanished before a new device could decode them again: their
    /// voices go (silent from the loss on), and the game is told.
    func dropLostSounds() {
        for (sound, reason) in sounds.takeLostSounds() {
            logger.warning("\(reason)")
            voices.removeVoices(of: sound, reason: .deviceLost)
            events.emit(DeviceEvent.soundLost(name: sound.name, reason: reason))
        }
    }

    // MARK: Snapshots

    /// The engine's state as a snapshot, with positions read from OpenAL where it still can.
    func makeSnapshot() -> SavedState {
        let parameterValues = design.parameterValues, snapshotIntensities = design.snapshotIntensities
        return SavedState(tracks: streams.savedTracks(), loopingVoices: voices.savedLoopingVoices(cueName: design.cueName(of:)),
                          groupGains: mixer.gainsByName, listener: world.listener,
                          parameterValues: parameterValues.isEmpty ? nil : parameterValues,
                          snapshotIntensities: snapshotIntensities.isEmpty ? nil : snapshotIntensities)
    }

    /// Hands the snapshot to the ``SnapshotWriter`` when a ``SoundEngine/Configuration/statePath``
    /// is set: built here, under the engine lock; encoded and written on the writer's queue. A
    /// write failure is logged there: it must never stop the audio.
    func saveSnapshotIfConfigured() {
        guard let snapshots else { return }
        snapshots.submit(makeSnapshot())
    }
}
