/// The voices' sources and what each update does to them: admitting a voice (through
/// ``SourceAssignment``, which decides who holds a source), ending voices, pausing a source now,
/// moving fades on, sending changes, the update's servicing, and holding and resuming the voices
/// for the session. ``VoicePlayer`` turns the game's commands into these steps; the update and
/// ``HeldPlayback`` call them directly.
final class VoiceSources {
    private let table: VoiceTable
    private let renderer: ALRenderer
    private let mixer: GroupMixer
    private let gate: ALGate
    private let events: EventQueue
    /// Who holds a real source: the budget, admissions, the pool's plan.
    private let assignment: SourceAssignment
    /// Scratch list of the slots the update services through their objects, reused so it
    /// allocates nothing.
    @exclusivity(unchecked) private var slotScratch: [Int32] = []
    /// Scratch list of the slots whose position the update reads from OpenAL, reused likewise.
    @exclusivity(unchecked) private var readScratch: [Int32] = []

    /// Real voices' positions are read from OpenAL every this many updates (half a second at the
    /// default interval), all in the same update, and advanced by the clock in between: an
    /// offset read is costly in OpenAL Soft 1.19 (it waits out a mix in progress, and reads the
    /// source's mixing voice, cold on the game's thread). The clock drifts from the device only while the mixer
    /// stalls, so a device lost without warning resumes a real voice off by at most the stalls
    /// of the last half second. Exact positions (interruptions, teardown, queries) still read
    /// OpenAL directly.
    static let positionReadPeriod = 50

    init(table: VoiceTable, renderer: ALRenderer, mixer: GroupMixer, gate: ALGate, events: EventQueue,
         assignment: SourceAssignment) {
        self.table = table
        self.renderer = renderer
        self.mixer = mixer
        self.gate = gate
        self.events = events
        self.assignment = assignment
    }

    /// Admits a new voice now (the session is active), as ``SourceAssignment/admit(_:)`` does;
    /// an AL error is logged against `call`.
    func admitNow(_ voice: Voice, call: String) {
        gate.run(call) { _ in try assignment.admit(voice) }
    }

    /// A paused voice plays again where it stood: its source plays, or, virtual, it is admitted.
    func playAgain(_ voice: Voice) {
        gate.run("resume") { _ in
            if voice.isReal {
                try renderer.play(voice)
            } else {
                try assignment.admit(voice)
            }
        }
    }

    /// Reads a real voice's position from OpenAL, for a query.
    func readPosition(of voice: Voice) {
        gate.run("positionInFrames(of:)") { _ in try renderer.syncPosition(of: voice) }
    }

    /// Sends every change the setters and fades recorded since the last time, for the voices
    /// that still hold a source, in one batch checked once. Called by the update inside its
    /// deferred block, and offline before a render chunk that no update precedes.
    func sendChanges() throws {
        guard table.entries.hasChanges else { return }
        try renderer.sendChanges(of: table)
    }

    /// There are changes for ``sendChanges()`` to send.
    var hasChanges: Bool { table.entries.hasChanges }

    /// Pauses or resumes the real voices of a group (every voice, for master) without changing
    /// their own state: a group pause is lifted by the group, a voice pause by the voice. The
    /// caller then lets ``assignSources()`` find sources for the resumed virtual ones.
    func setGroupPaused(_ paused: Bool, group: Int) throws {
        for voice in table.liveVoices where voice.state == .playing && (voice.groupIndex == group || group == GroupTable.masterIndex) {
            if voice.isReal {
                if paused { try renderer.pause(voice) } else if !mixer.pauses(voice.groupIndex) { try renderer.play(voice) }
            }
        }
    }

    /// Sends every real voice's gain after a group gain changed.
    func applyGroupGains() throws {
        try table.forEachLiveVoice { try renderer.applyGain(of: $0) }
    }

    /// Sends every real voice's effects after a reverb zone changed.
    func applyEffects() throws {
        try table.forEachLiveVoice { try renderer.applyEffects(of: $0) }
    }

    /// The device is going: every voice forgets its source, and a streamed voice its queue's
    /// buffers; positions stay in the model.
    func forgetDevice() {
        table.forgetSources()
    }

    private var isActive: Bool { gate.isSessionActive }

    /// Ends a voice for `reason`: its handle goes stale, the game hears of it
    /// (``VoiceEvent/finished(_:reason:)``), and its source is freed (at once when active,
    /// otherwise when the session is active again), with a streamed voice's buffers.
    func remove(_ voice: Voice, reason: VoiceEndReason) {
        guard let slot = table.remove(voice) else { return }
        events.emit(.finished(voice.handle, reason: reason))
        renderer.release(slot, buffers: voice.stream?.takeBuffers() ?? [])
        gate.run("stop") { _ in try releaseDeferred() }
    }

    /// Frees the sources of voices ended while no AL call could be made, then deletes the
    /// buffers of sounds unloaded meanwhile (no source holds them any more).
    func releaseDeferred() throws {
        try renderer.releaseDeferred()
    }

    /// Whether the voice is live, a one-shot whose source played its last frame since the last
    /// update being ended (and removed) now rather than at the next update: a cue's voice limit
    /// counts it no more.
    func isLiveNow(_ handle: VoiceHandle) -> Bool {
        guard let voice = table.voice(for: handle) else { return false }
        guard !voice.isLooping, voice.isReal, isActive else { return true }
        var playedOut = false
        gate.run("play(cue:)") { _ in playedOut = try renderer.hasFinished(voice) }
        if playedOut { remove(voice, reason: .ended) }
        return !playedOut
    }

    /// Ends every voice of `sound` for `reason` (it is being unloaded, or it is lost).
    func removeVoices(of sound: Sound, reason: VoiceEndReason) {
        for voice in table.liveVoices where voice.sound?.id == sound.id {
            remove(voice, reason: reason)
        }
    }

    /// A sound lost to a changed or vanished file: its voices end (silent from the loss on), and
    /// the game is told why.
    func dropLost(_ sound: Sound, reason: String) {
        removeVoices(of: sound, reason: .deviceLost)
        events.emit(DeviceEvent.soundLost(name: sound.name, reason: reason))
    }

    /// Pauses a voice now: its source paused and its position recorded, or, while
    /// interrupted, tracked for the end. A one-shot that played out meanwhile ends instead.
    func pauseNow(_ voice: Voice) {
        if isActive {
            var playedOut = false
            gate.run("pause") { _ in
                guard voice.isReal else { return }
                // A one-shot that played out since the last update is over: kept as paused, a
                // resume would play it again from its start.
                if !voice.isLooping, try renderer.hasFinished(voice) {
                    playedOut = true
                    return
                }
                try renderer.pause(voice)
                try renderer.syncPosition(of: voice)
            }
            if playedOut {
                remove(voice, reason: .ended)
                return
            }
        } else {
            events.emit(.commandDeferred(.pause(voice.handle)))
        }
        voice.state = .paused
    }

    /// Moves a voice's fades on, recording the new gain and pitch for the update to send.
    /// Returns false when a fade-out has ended and the voice was stopped or paused.
    @discardableResult
    func advanceFades(of voice: Voice, bySeconds seconds: Double) -> Bool {
        if var fade = voice.gainFade {
            fade.advance(bySeconds: seconds)
            voice.setFadedGain(fade.gain)
            voice.gainFade = fade.isFinished ? nil : fade
            if fade.isFinished {
                switch voice.fadeEnd {
                case .none:
                    if fade.durationSeconds > 0 { events.emit(VoiceEvent.fadeFinished(voice.handle)) }
                case .stop:
                    remove(voice, reason: .stopped)
                    return false
                case .pause(let restoredGain):
                    voice.fadeEnd = .none
                    pauseNow(voice)
                    // Paused (or ended) now: the gain it had comes back, for the resume.
                    voice.setFadedGain(restoredGain)
                    voice.markChanged(.gain)
                    // Not for a one-shot that had played out: pausing it removed it (finished).
                    if fade.durationSeconds > 0, table.voice(for: voice.handle) != nil {
                        events.emit(VoiceEvent.fadeFinished(voice.handle))
                    }
                    return false
                }
            }
            voice.markChanged(.gain)
        }
        if var fade = voice.pitchFade {
            fade.advance(bySeconds: seconds)
            voice.setFadedPitch(max(Float.leastNormalMagnitude, fade.gain))
            voice.pitchFade = fade.isFinished ? nil : fade
            voice.markChanged(.pitch)
        }
        return true
    }

    // MARK: The session

    /// Removes the one-shots whose sources stopped by themselves since the last update. Called
    /// before anything is held: a played-out one-shot held for an interruption, a rebuild or a
    /// switch would play again from its start when it resumes.
    func removePlayedOutOneShots() {
        var finished: [Voice] = []
        gate.run("find played-out one-shots") { _ in
            for voice in table.liveVoices where voice.state == .playing && !voice.isLooping {
                if try renderer.hasFinished(voice) { finished.append(voice) }
            }
        }
        for voice in finished { remove(voice, reason: .ended) }
    }

    /// The places of the real voices that should be sounding now: playing, in a group that
    /// is not paused. The engine holds them while the mixer stands still.
    var audibleSlots: [RenderSlot] {
        table.liveVoices.compactMap { voice in
            voice.state == .playing && !mixer.pauses(voice.groupIndex) ? voice.renderSlot : nil
        }
    }

    /// Records the frame OpenAL reached for every playing voice; returns the real ones'
    /// places, which an interruption's begin pauses together with the streams'.
    func recordPlayingPositions() throws -> [RenderSlot] {
        var slots: [RenderSlot] = []
        for voice in table.liveVoices where voice.state == .playing {
            if let slot = voice.renderSlot {
                try renderer.syncPosition(of: voice)
                slots.append(slot)
            }
        }
        return slots
    }

    /// Marks every voice as held by the session, and ends the system sounds, which never resume.
    func holdForSession() {
        for voice in table.liveVoices {
            if voice.isSystemSound {
                remove(voice, reason: .interrupted)
            } else {
                _ = voice.holdForSession()
            }
        }
    }

    /// Sends every voice's parameters to its source (they may have changed meanwhile, or the
    /// device is new), and marks playing the voices that resume after the session
    /// (``SessionHeld/resumesAfterSession(resumesHeld:)``). A real one, outside a paused group,
    /// adds its place to `slots`, which play together with the streams'; virtual ones get
    /// sources from the pool after. Returns how many resumed.
    func resume(resumesHeld: Bool, into slots: inout [RenderSlot]) throws -> Int {
        var resumedCount = 0
        for voice in table.liveVoices {
            try renderer.applyParameters(of: voice)
            guard voice.resumesAfterSession(resumesHeld: resumesHeld) else { continue }
            if let slot = voice.renderSlot, !mixer.pauses(voice.groupIndex) { slots.append(slot) }
            voice.state = .playing
            resumedCount += 1
            events.emit(VoiceEvent.resumed(voice.handle, positionInFrames: voice.positionInFrames))
        }
        return resumedCount
    }

    /// The looping voices of loaded sounds as a snapshot keeps them, each with the cue that
    /// started it (`cueName`). Streamed voices are not in snapshots: a snapshot restores a
    /// voice by loading its sound.
    func savedLoopingVoices(cueName: (VoiceHandle) -> String?) -> [SavedState.LoopingVoice] {
        table.liveVoices.filter { $0.isLooping && !$0.isSystemSound && $0.sound != nil }.map { voice in
            SavedState.LoopingVoice(soundPath: voice.name, parameters: voice.parameters,
                                    positionInFrames: voice.positionInFrames, wasPlaying: voice.state != .paused,
                                    cueName: cueName(voice.handle))
        }
    }

    // MARK: The update

    /// One update of the voices. First the voices the entries keep listed (real ones: finished
    /// one-shots, positions read from OpenAL when `readsPositions` (every ``positionReadPeriod``
    /// updates, as the caller counts them) and advanced by the clock in between; and fading ones): a real looping voice of a sound with no fade
    /// only has its clock moved in its entry, or its position read with the others due in one
    /// batch of AL calls; the rest are serviced through their object.
    /// Then the pool's one walk over every entry, and its plan for the real sources. Real
    /// streamed voices refill their queues on every update; with `waitsForDecode` (an offline
    /// render) they wait for the decode thread to fill them; while the mixer is held
    /// (``ALGate/startsSources``) a streamed voice's source that is not playing stays so.
    func service(elapsedSeconds: Double, waitsForDecode: Bool, readsPositions isPositionReadDue: Bool) throws {
        let scoresCandidates = table.liveVoiceCount > assignment.realVoiceBudget
        var objectSlots: [Int32] = []
        var readSlots: [Int32] = []
        swap(&objectSlots, &slotScratch)
        swap(&readSlots, &readScratch)
        defer {
            swap(&objectSlots, &slotScratch)
            swap(&readSlots, &readScratch)
        }
        table.entries.advanceClocks(bySeconds: elapsedSeconds, groups: mixer, readsPositions: isPositionReadDue,
                                    reads: &readSlots, others: &objectSlots)
        if !readSlots.isEmpty {
            // On its own: a failed read leaves the clock's positions and the rest of the service runs.
            gate.attempt("update: position reads") {
                try renderer.readPositions(ofSlots: readSlots, in: table.entries)
            }
        }
        for slot in objectSlots {
            guard let voice = table.voice(inSlot: Int(slot)), !mixer.pauses(voice.groupIndex) else { continue }
            if voice.gainFade != nil || voice.pitchFade != nil {
                guard advanceFades(of: voice, bySeconds: elapsedSeconds) else { continue }
            }
            guard voice.isReal else { continue }
            if let stream = voice.stream {
                try renderer.service(stream, of: voice, waiting: waitsForDecode)
                // A one-shot at its end, or a stream whose decoding failed.
                if stream.isFinished { remove(voice, reason: .ended) }
                continue
            }
            // Only a one-shot stops by itself: a looping source is stopped by the engine alone.
            if !voice.isLooping, try renderer.hasFinished(voice) {
                remove(voice, reason: .ended)
            } else if isPositionReadDue {
                try renderer.syncPosition(of: voice)
            } else {
                // A one-shot past its end stays there until its source reports it stopped.
                _ = voice.advance(bySeconds: elapsedSeconds)
            }
        }
        let playingCount = assignment.scan(elapsedSeconds: elapsedSeconds, scoresCandidates: scoresCandidates)
        assignment.releaseEnded { remove($0, reason: .ended) }
        try assignment.plan(knownPlayingCount: playingCount, candidatesAreScored: scoresCandidates) { remove($0, reason: .ended) }
    }

    /// Gives the most important playing voices, up to the budget, a real source, and makes the
    /// rest virtual. Voices that stay in the budget keep their source: no AL churn.
    func assignSources() throws {
        try assignment.plan(knownPlayingCount: nil, candidatesAreScored: false) { remove($0, reason: .ended) }
    }
}
