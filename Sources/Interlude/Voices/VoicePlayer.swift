/// The game's commands to voices: starting, stopping, pausing, resuming, changing and fading
/// them, and reading them, through the ``VoiceTable`` (who is alive) and ``VoiceSources`` (who
/// holds a source, what OpenAL is told, and each update). While the session is interrupted no
/// AL call is made: commands are tracked, and applied when it is active again.
final class VoicePlayer {
    private let configuration: SoundEngine.Configuration
    private let table: VoiceTable
    private let mixer: GroupMixer
    private let sounds: SoundBank
    private let gate: ALGate
    private let events: EventQueue
    /// Which voices hold sources: admitting, ending and pausing them, and each update.
    private let sources: VoiceSources

    init(configuration: SoundEngine.Configuration, table: VoiceTable, mixer: GroupMixer,
         sounds: SoundBank, gate: ALGate, events: EventQueue, sources: VoiceSources) {
        self.configuration = configuration
        self.table = table
        self.mixer = mixer
        self.sounds = sounds
        self.gate = gate
        self.events = events
        self.sources = sources
    }

    private var isActive: Bool { gate.isSessionActive }

    // MARK: Starting and ending

    /// Starts a new voice. While interrupted, a looping voice is deferred to the end and a
    /// one-shot is dropped (its handle is already stale). When every real source is taken, the
    /// voice takes the source of the least important real voice if it matters more, and is
    /// virtual otherwise. `startFrame` and `startsPaused` serve snapshot restores: a paused
    /// voice gets its source on its first resume. `factors` are a cue voice's curves' at its start.
    func play(_ sound: Sound, parameters: VoiceParameters, origin: VoiceOrigin,
              startFrame: Int = 0, startsPaused: Bool = false, factors: CurveFactors = .unity) throws -> VoiceHandle {
        let command = origin.call
        let isSystemSound = origin == .systemSound
        try checkLoaded(sound, in: command)
        let groupIndex = try checkNewVoice(parameters, command: command, naming: sound.name)
        if dropsPlay(isLooping: parameters.isLooping, isSystemSound: isSystemSound) { return dropPlay(origin) }
        let handle = table.allocateSlot()
        let voice = Voice(handle: handle, media: .loaded(sound), parameters: parameters, groupIndex: groupIndex,
                          state: startsPaused ? .paused : isActive ? .playing : .pendingStart,
                          isSystemSound: isSystemSound, entries: table.entries, factors: factors)
        voice.positionInFrames = max(0, startFrame) % max(1, sound.frameCount)
        table.insert(voice)
        if startsPaused {
            return handle
        }
        start(voice, call: command, origin: origin)
        return handle
    }

    /// Whether a play now would be dropped, its handle stale: a one-shot (or a system sound)
    /// while the session is interrupted. A looping voice waits for the end instead.
    func dropsPlay(isLooping: Bool, isSystemSound: Bool = false) -> Bool {
        !isActive && (isSystemSound || !isLooping)
    }

    /// Whether the voice still sounds: a one-shot that played out since the last update ends
    /// now, so that a cue's voice limit counts only what is heard.
    func isLiveNow(_ handle: VoiceHandle) -> Bool {
        sources.isLiveNow(handle)
    }

    /// Ends a voice at once for a cue's voice limit: ``VoiceEvent/finished(_:reason:)`` says
    /// `.stolen`.
    func steal(_ handle: VoiceHandle) {
        guard let voice = table.voice(for: handle) else { return }
        sources.remove(voice, reason: .stolen)
    }

    /// Throws `.foreignObject` naming `call` unless this engine loaded `sound` and still has it.
    func checkLoaded(_ sound: Sound, in call: String) throws {
        guard table.isOwnEngine(sound.engineID), sounds.contains(sound) else {
            throw InterludeError(.foreignObject, "\(call): \(sound.name) was not loaded by this engine, or was unloaded")
        }
    }

    /// Checks a new voice's parameters and that a voice is free; returns its group's index.
    /// The error for a full engine names `subject` (the sound) after `command`, when given.
    func checkNewVoice(_ parameters: VoiceParameters, command: String, naming subject: String? = nil) throws -> Int {
        try parameters.validate(in: command)
        let groupIndex = try mixer.existingIndex(of: parameters.group, in: command)
        try mixer.checkZone(parameters.reverbZone, in: command)
        guard table.liveVoiceCount < configuration.maximumVoiceCount else {
            let what = subject.map { "\(command): \($0)" } ?? command
            throw InterludeError(.tooManyVoices, "\(what): all \(configuration.maximumVoiceCount) voices are in use (Configuration.maximumVoiceCount)")
        }
        return groupIndex
    }

    /// A play dropped while the session is interrupted (``dropsPlay(isLooping:isSystemSound:)``):
    /// the game is told, and gets a handle that is stale from the start.
    func dropPlay(_ origin: VoiceOrigin) -> VoiceHandle {
        let handle = table.staleHandle()
        events.emit(.commandDropped(origin.tracked(handle)))
        return handle
    }

    /// Starts a streamed voice of `stream`, checked by ``checkNewVoice(_:command:naming:)`` into
    /// `groupIndex` (``StreamedVoiceStart`` makes the stream): it plays now, or waits for the
    /// session.
    func startStreamedVoice(_ stream: StreamQueue, parameters: VoiceParameters, groupIndex: Int, command: String) -> VoiceHandle {
        let handle = table.allocateSlot()
        let voice = Voice(handle: handle, media: .streamed(stream), parameters: parameters, groupIndex: groupIndex,
                          state: isActive ? .playing : .pendingStart, isSystemSound: false, entries: table.entries)
        table.insert(voice)
        start(voice, call: command, origin: .play)
        return handle
    }

    /// Admits a new voice now, or tells the game it waits for the session.
    private func start(_ voice: Voice, call: String, origin: VoiceOrigin) {
        if isActive {
            sources.admitNow(voice, call: call)
        } else {
            events.emit(.commandDeferred(origin.tracked(voice.handle)))
        }
    }

    // MARK: Commands

    /// Stops a voice, at once or after a fade to silence over `fadeSeconds`: its handle goes
    /// stale. Tracked while interrupted (at once, then).
    func stop(_ handle: VoiceHandle, fadeSeconds: Double) {
        guard let voice = table.voice(for: handle) else { return }
        if fadeSeconds > 0, isActive, voice.state == .playing {
            startGainFade(of: voice, to: 0, durationSeconds: fadeSeconds, curve: .linear, end: .stop)
            return
        }
        if !isActive { events.emit(.commandDeferred(.stop(handle))) }
        sources.remove(voice, reason: .stopped)
    }

    /// Stops every voice of a group (every voice, for master), as ``stop(_:fadeSeconds:)`` does.
    func stop(group: Int, fadeSeconds: Double) {
        for voice in table.liveVoices where group == GroupTable.masterIndex || voice.groupIndex == group {
            stop(voice.handle, fadeSeconds: fadeSeconds)
        }
    }

    /// Pauses a voice at its current frame, at once or after a fade to silence over
    /// `fadeSeconds` (its gain then goes back to what it was, for the resume). Tracked while
    /// interrupted (at once, then): it stays paused.
    func pause(_ handle: VoiceHandle, fadeSeconds: Double) {
        guard let voice = table.voice(for: handle), voice.state != .paused else { return }
        if fadeSeconds > 0, isActive, voice.state == .playing {
            let restored: Float = if case .pause(let gain) = voice.fadeEnd { gain } else { voice.gain }
            startGainFade(of: voice, to: 0, durationSeconds: fadeSeconds, curve: .linear, end: .pause(restoredGain: restored))
            return
        }
        sources.pauseNow(voice)
    }

    /// Resumes a paused voice where it was, at once or fading in from silence to its gain over
    /// `fadeSeconds`. Tracked while interrupted: it plays at the end.
    func resume(_ handle: VoiceHandle, fadeSeconds: Double) {
        guard let voice = table.voice(for: handle) else { return }
        if voice.state == .playing {
            // A resume during a pause's fade-out cancels the pause: back to the gain it had.
            if case .pause(let gain) = voice.fadeEnd, isActive {
                startGainFade(of: voice, to: gain, durationSeconds: fadeSeconds, curve: .linear, end: .none)
            }
            return
        }
        if isActive {
            if fadeSeconds > 0 {
                let target = voice.gain
                voice.setFadedGain(0)
                voice.markChanged(.gain)
                startGainFade(of: voice, to: target, durationSeconds: fadeSeconds, curve: .linear, end: .none)
            }
            voice.state = .playing
            sources.playAgain(voice)
        } else if voice.state != .pendingStart {
            voice.state = .pendingStart
            events.emit(.commandDeferred(.resume(handle)))
        }
    }

    /// Changes a voice's parameters: writes the model and records what changed for the update
    /// to send (no AL call). Tracked while interrupted: applied at the end.
    /// - Parameter call: the public call, named in errors; `command` names the change in events.
    func change(_ handle: VoiceHandle, call: String, _ change: (inout VoiceParameters) -> Void) throws {
        guard let voice = table.voice(for: handle) else { return }
        let previous = voice.parameters
        var parameters = previous
        change(&parameters)
        try parameters.validate(in: call)
        if (parameters.position == nil) != (previous.position == nil) {
            throw InterludeError(.invalidArgument, "\(call): a voice cannot switch between positional and unpositioned while playing")
        }
        if voice.stream != nil && parameters.isLooping != previous.isLooping {
            throw InterludeError(.invalidArgument, "\(call): a streamed voice (\(voice.name)) loops or not as it was started")
        }
        let groupIndex = try mixer.existingIndex(of: parameters.group, in: call)
        try mixer.checkZone(parameters.reverbZone, in: call)
        let previousGroupIndex = voice.groupIndex
        voice.parameters = parameters
        voice.groupIndex = groupIndex
        let changes = VoiceChanges.between(previous, previousGroupIndex: previousGroupIndex, and: parameters, groupIndex: groupIndex)
        voice.markChanged(changes)
        if !isActive { events.emitDeferredChange(of: handle, changes.properties) }
    }

    /// Moves a positional voice: the hot path of a game moving its emitters every frame, so it
    /// validates and records only the position, for the update to send.
    func setPosition(_ position: Vector3, of handle: VoiceHandle) throws {
        try Validate.vector(position, "position", in: "setPosition")
        guard let slot = table.liveSlot(for: handle) else { return }
        guard table.movePositional(slot, to: position) else {
            throw InterludeError(.invalidArgument, "setPosition: a voice cannot switch between positional and unpositioned while playing")
        }
        if !isActive { events.emitDeferredChange(of: handle, .position) }
    }

    /// Moves many positional voices in one go: everything is validated first, then recorded for
    /// the update to send, or tracked while interrupted (one deferred event per voice).
    func setPositions(_ positions: [Vector3], of handles: [VoiceHandle]) throws {
        guard positions.count == handles.count else {
            throw InterludeError(.invalidArgument, "setPositions: \(positions.count) positions for \(handles.count) voices")
        }
        // Checked in full before anything moves, by slot: taking each voice would cost a retain
        // and a release per position.
        for index in handles.indices {
            try Validate.vector(positions[index], "position", in: "setPositions")
            guard let slot = table.liveSlot(for: handles[index]) else { continue }
            guard table.isPositional(slot) else {
                throw InterludeError(.invalidArgument, "setPositions: a voice cannot switch between positional and unpositioned while playing")
            }
        }
        let tracksDeferredChanges = !isActive
        for index in handles.indices {
            guard let slot = table.liveSlot(for: handles[index]) else { continue }
            _ = table.movePositional(slot, to: positions[index])
            if tracksDeferredChanges { events.emitDeferredChange(of: handles[index], .position) }
        }
    }

    /// Moves a voice's gain to `gain` over `fadeSeconds` along `curve` (at once for 0), on the
    /// update. Cancels a pending stop or pause of a fade-out. Tracked while interrupted. The
    /// gain was checked with its ``ControlCommand``.
    func setGain(_ gain: Float, of handle: VoiceHandle, fadeSeconds: Double, curve: FadeCurve, call: String) throws {
        guard let voice = table.voice(for: handle) else { return }
        if fadeSeconds == 0 {
            voice.gainFade = nil
            voice.fadeEnd = .none
            try change(handle, call: call) { $0.gain = gain }
            return
        }
        startGainFade(of: voice, to: gain, durationSeconds: fadeSeconds, curve: curve, end: .none)
        if !isActive { events.emitDeferredChange(of: handle, .gain) }
    }

    /// Moves a voice's pitch to `pitch` over `fadeSeconds` along `curve` (at once for 0), on
    /// the update. Tracked while interrupted.
    func setPitch(_ pitch: Float, of handle: VoiceHandle, fadeSeconds: Double, curve: FadeCurve, call: String) throws {
        try Validate.pitch(pitch, in: call)
        guard let voice = table.voice(for: handle) else { return }
        if fadeSeconds == 0 {
            voice.pitchFade = nil
            try change(handle, call: call) { $0.pitch = pitch }
            return
        }
        voice.pitchFade = Fade(startGain: voice.pitch, targetGain: pitch, durationSeconds: fadeSeconds, curve: curve)
        if !isActive { events.emitDeferredChange(of: handle, .pitch) }
    }

    private func startGainFade(of voice: Voice, to gain: Float, durationSeconds: Double, curve: FadeCurve, end: FadeEnd) {
        voice.gainFade = Fade(startGain: voice.gain, targetGain: gain, durationSeconds: durationSeconds, curve: curve)
        voice.fadeEnd = end
        if durationSeconds == 0 { sources.advanceFades(of: voice, bySeconds: 0) }
    }

    // MARK: Queries

    /// The voice's parameters, or nil for a stale handle.
    func parameters(of handle: VoiceHandle) -> VoiceParameters? {
        table.voice(for: handle)?.parameters
    }

    /// The voice's position in frames, read from OpenAL first while it can be.
    func positionInFrames(of handle: VoiceHandle) -> Int? {
        guard let voice = table.voice(for: handle) else { return nil }
        if voice.state == .playing, voice.isReal { sources.readPosition(of: voice) }
        return voice.positionInFrames
    }

    /// The voice plays, or will when an interruption ends.
    func isPlaying(_ handle: VoiceHandle) -> Bool {
        guard let state = table.voice(for: handle)?.state else { return false }
        return state == .playing || state == .heldBySession || state == .pendingStart
    }

    /// The voice holds a real source.
    func isReal(_ handle: VoiceHandle) -> Bool {
        table.voice(for: handle)?.isReal ?? false
    }

    /// The most PCM a streamed voice holds in flight, in bytes; nil for a voice of a sound.
    func streamedBytesInFlight(of handle: VoiceHandle) -> Int? {
        table.voice(for: handle)?.stream?.bytesInFlight
    }
}
