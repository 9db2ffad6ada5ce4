extension SoundEngine {
    // MARK: Voices

    /// Starts a voice of `sound`. While interrupted, a looping voice starts when the session is
    /// active again and a one-shot is dropped (the returned handle is stale). Throws
    /// `.invalidArgument` for out-of-range parameters, `.tooManyVoices` when every voice is in
    /// use, `.foreignObject` for a sound from another engine, `.fileNotFound` for a sound lost
    /// because its file changed or vanished before a new device could decode it again
    /// (``DeviceEvent/soundLost(name:reason:)``). Any thread.
    @discardableResult
    public func play(_ sound: Sound, parameters: VoiceParameters = VoiceParameters()) throws -> VoiceHandle {
        try withCore("play(\(sound.name))") { try $0.play(sound, parameters: parameters, origin: .play) }
    }

    /// Plays a short UI sound, unpositioned, in the ``GroupID/ui`` group. Dropped during an
    /// interruption, never resumed after one (``VoiceEndReason/interrupted``), usable again as
    /// soon as it ends. Any thread.
    @discardableResult
    public func playSystemSound(_ sound: Sound, gain: Float = 1) throws -> VoiceHandle {
        var parameters = VoiceParameters()
        parameters.gain = gain
        parameters.group = .ui
        return try withCore("playSystemSound(\(sound.name))") { try $0.play(sound, parameters: parameters, origin: .systemSound) }
    }

    /// Sets a voice's gain (>= 0): at once, or moving there over `fadeSeconds` along `curve`.
    /// Any thread.
    public func setGain(_ gain: Float, of voice: VoiceHandle, fadeSeconds: Double = 0, curve: FadeCurve = .linear) throws {
        try control(.setGain(gain, fadeSeconds: fadeSeconds, curve: curve), .voice(voice))
    }

    /// Sets a voice's pitch (> 0; 2 is an octave up): at once, or gliding there over
    /// `fadeSeconds` along `curve`. Any thread.
    public func setPitch(_ pitch: Float, of voice: VoiceHandle, fadeSeconds: Double = 0, curve: FadeCurve = .linear) throws {
        try Validate.seconds(fadeSeconds, "fadeSeconds", in: "setPitch(of: voice)")
        try withCore("setPitch(of: voice)") {
            try $0.voices.setPitch(pitch, of: voice, fadeSeconds: fadeSeconds, curve: curve, call: "setPitch(of: voice)")
        }
    }

    /// Pauses a voice at its frame: at once, or after fading to silence over `fadeSeconds` (its
    /// gain is back for the resume). Tracked while interrupted. Any thread.
    public func pause(_ voice: VoiceHandle, fadeSeconds: Double = 0) throws {
        try control(.pause(fadeSeconds: fadeSeconds), .voice(voice))
    }

    /// Resumes a paused voice at the frame it paused on: at once, or fading in from silence
    /// over `fadeSeconds`. Tracked while interrupted. Any thread.
    public func resume(_ voice: VoiceHandle, fadeSeconds: Double = 0) throws {
        try control(.resume(fadeSeconds: fadeSeconds), .voice(voice))
    }

    /// Stops a voice: at once, or after fading to silence over `fadeSeconds`. Its handle goes
    /// stale, and ``VoiceEvent/finished(_:reason:)`` says so. Any thread.
    public func stop(_ voice: VoiceHandle, fadeSeconds: Double = 0) throws {
        try control(.stop(fadeSeconds: fadeSeconds), .voice(voice))
    }

    /// Moves a positional voice; OpenAL hears it at the next update. Any thread.
    public func setPosition(_ position: Vector3, of voice: VoiceHandle) throws {
        try withCore("setPosition(of: voice)") { try $0.voices.setPosition(position, of: voice) }
    }

    /// Moves many positional voices under one lock: `positions[i]` goes to `voices[i]`. For a game
    /// moving its emitters every frame. Stale handles are skipped. Throws `.invalidArgument`, moving
    /// none, when the counts differ, a position is not finite or a voice is unpositioned. Any thread.
    public func setPositions(_ positions: [Vector3], of voices: [VoiceHandle]) throws {
        try withCore("setPositions(of: voices)") { try $0.voices.setPositions(positions, of: voices) }
    }

    /// Sets a positional voice's velocity, for doppler. Any thread.
    public func setVelocity(_ velocity: Vector3, of voice: VoiceHandle) throws {
        try Validate.vector(velocity, "velocity", in: "setVelocity(of: voice)")
        try withCore("setVelocity(of: voice)") {
            try $0.voices.change(voice, call: "setVelocity(of: voice)") { $0.velocity = velocity }
        }
    }

    /// Changes any of a voice's parameters at once, as one read-modify-write under the engine's
    /// lock (a positional voice stays positional). Any thread.
    public func changeParameters(of voice: VoiceHandle, _ change: (inout VoiceParameters) -> Void) throws {
        try withCore("changeParameters(of: voice)") { try $0.voices.change(voice, call: "changeParameters(of: voice)", change) }
    }

    /// The voice's parameters, or nil for a stale handle. Any thread.
    public func parameters(of voice: VoiceHandle) -> VoiceParameters? {
        readCore { $0.voices.parameters(of: voice) }
    }

    /// How far the voice has played into its sound, in frames (modulo its length when looping),
    /// or nil for a stale handle. Any thread.
    public func positionInFrames(of voice: VoiceHandle) -> Int? {
        readCore { $0.voices.positionInFrames(of: voice) }
    }

    /// True while the voice is playing (or will play when an interruption ends). Any thread.
    public func isPlaying(_ voice: VoiceHandle) -> Bool {
        readCore { $0.voices.isPlaying(voice) }
    }

    /// True while the voice holds a real AL source (false while virtual, paused or stale). Any thread.
    public func isReal(_ voice: VoiceHandle) -> Bool {
        readCore { $0.voices.isReal(voice) }
    }
}
