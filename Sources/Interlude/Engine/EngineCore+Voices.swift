extension EngineCore {
    /// The most voices that can hold a source at once: the context's sources less those kept
    /// for streams.
    var voiceLimit: Int {
        configuration.monoSourceCount + configuration.stereoSourceCount - SoundEngine.Configuration.streamSourceCount
    }

    /// The live voice a handle names, or nil for a stale or foreign handle.
    func voice(for handle: VoiceHandle) -> Voice? {
        guard handle.engineID == engineID, handle.slot >= 0, handle.slot < voiceSlots.count,
              slotGenerations[handle.slot] == handle.generation else { return nil }
        return voiceSlots[handle.slot]
    }

    /// Every live voice.
    var liveVoices: [Voice] { voiceSlots.compactMap { $0 } }

    /// Takes a free slot and returns its handle.
    func allocateSlot() -> VoiceHandle {
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
        } else {
            slot = voiceSlots.count
            voiceSlots.append(nil)
            slotGenerations.append(1)
        }
        return VoiceHandle(slot: slot, generation: slotGenerations[slot], engineID: engineID)
    }

    /// Ends a voice: its handle goes stale and its source is freed (at once when active,
    /// otherwise when the session is active again). `isInsideAL`: the caller already holds the
    /// context (an update), so the source is released by the caller rather than through a second
    /// `withAL`, which would take the process-wide context lock twice.
    func removeVoice(_ voice: Voice, isInsideAL: Bool = false) {
        let slot = voice.handle.slot
        guard voiceSlots[slot] === voice else { return }
        voiceSlots[slot] = nil
        slotGenerations[slot] &+= 1
        freeSlots.append(slot)
        liveVoiceCount -= 1
        if let source = voice.source {
            voice.source = nil
            sourcesToRelease.append(source)
            if !isInsideAL {
                withAL("stop") { device in try releaseDeferredSources(on: device) }
            }
        }
    }

    /// Stops and frees the sources of voices ended while no AL call could be made.
    func releaseDeferredSources(on device: ALDevice) throws {
        while let source = sourcesToRelease.popLast() {
            try source.stop()
            try source.attach(nil)
            freeSources.append(source)
        }
    }

    /// Starts a new voice. While interrupted, a looping voice is deferred to the end and a
    /// one-shot is dropped (its handle is already stale).
    /// `startFrame` and `startsPaused` serve snapshot restores: a paused voice gets its source on
    /// its first resume.
    func play(_ sound: Sound, parameters: VoiceParameters, isSystemSound: Bool, command: String,
              startFrame: Int = 0, startsPaused: Bool = false) throws -> VoiceHandle {
        guard sound.engineID == engineID, sounds[sound.id] != nil else {
            throw InterludeError(.foreignObject, "\(command): \(sound.name) was not loaded by this engine, or was unloaded")
        }
        try parameters.validate(in: command)
        let handle = allocateSlot()
        if !session.state.isActive && (isSystemSound || !parameters.isLooping) {
            // Consume the slot's generation so the returned handle is stale.
            slotGenerations[handle.slot] &+= 1
            freeSlots.append(handle.slot)
            emit(.commandDropped(command: command))
            return VoiceHandle(slot: handle.slot, generation: handle.generation, engineID: engineID)
        }
        guard liveVoiceCount < voiceLimit else {
            freeSlots.append(handle.slot)
            throw InterludeError(.tooManyVoices, "\(command): \(sound.name): all \(voiceLimit) voices are in use")
        }
        let voice = Voice(handle: handle, sound: sound, parameters: parameters,
                          state: startsPaused ? .paused : session.state.isActive ? .playing : .pendingStart,
                          isSystemSound: isSystemSound)
        voice.positionInFrames = max(0, startFrame) % max(1, sound.frameCount)
        voiceSlots[handle.slot] = voice
        liveVoiceCount += 1
        if startsPaused {
            return handle
        }
        if session.state.isActive {
            var started = false
            withAL(command) { device in
                try startOnAL(voice, on: device)
                started = true
            }
            if !started && device != nil {
                removeVoice(voice)
                throw InterludeError(.tooManyVoices, "\(command): \(sound.name): no OpenAL source is free")
            }
        } else {
            emit(.commandDeferred(command: command))
        }
        return handle
    }

    /// Gives `voice` a source, sets it up and starts it at its tracked position.
    func startOnAL(_ voice: Voice, on device: ALDevice) throws {
        if voice.source == nil {
            try releaseDeferredSources(on: device)
            let source = try freeSources.popLast() ?? device.makeSource()
            voice.source = source
            let buffers = try buffers(for: voice.sound, on: device)
            try source.attach(voice.usesMonoBuffer ? buffers.mono : buffers.native)
            try applyParameters(of: voice)
            if voice.positionInFrames > 0 {
                try source.setSampleOffset(voice.positionInFrames % max(1, voice.sound.frameCount))
            }
        }
        try voice.source?.play()
        voice.state = .playing
    }

    /// Sends a voice's parameters to its source.
    func applyParameters(of voice: Voice) throws {
        guard let source = voice.source else { return }
        let parameters = voice.parameters
        try source.setGain(parameters.gain * groups.effectiveGain(of: parameters.group))
        try source.setPitch(parameters.pitch)
        try source.setLooping(parameters.isLooping)
        if let position = parameters.position {
            try source.setDirectChannels(false)
            try source.setRelativeToListener(parameters.isRelativeToListener)
            try source.setPosition(position)
            try source.setVelocity(parameters.velocity)
            try source.setReferenceDistance(parameters.referenceDistance)
            try source.setMaxDistance(parameters.maxDistance)
            try source.setRolloffFactor(parameters.rolloffFactor)
        } else {
            try source.setDirectChannels(voice.sound.format.channelCount == 2)
            try source.setRelativeToListener(true)
            try source.setPosition(.zero)
            try source.setVelocity(.zero)
            try source.setRolloffFactor(0)
        }
    }

    /// Stops a voice: its handle goes stale. Tracked while interrupted.
    func stop(_ handle: VoiceHandle) {
        guard let voice = voice(for: handle) else { return }
        if !session.state.isActive { emit(.commandDeferred(command: "stop")) }
        removeVoice(voice)
    }

    /// Pauses a voice at its current frame. Tracked while interrupted: it stays paused.
    func pause(_ handle: VoiceHandle) {
        guard let voice = voice(for: handle), voice.state != .paused else { return }
        if session.state.isActive {
            withAL("pause") { _ in
                if let source = voice.source {
                    try source.pause()
                    voice.positionInFrames = try source.sampleOffset()
                }
            }
        } else {
            emit(.commandDeferred(command: "pause"))
        }
        voice.state = .paused
    }

    /// Resumes a paused voice where it was. Tracked while interrupted: it plays at the end.
    func resume(_ handle: VoiceHandle) {
        guard let voice = voice(for: handle), voice.state != .playing else { return }
        if session.state.isActive {
            withAL("resume") { device in try startOnAL(voice, on: device) }
        } else if voice.state != .pendingStart {
            voice.state = .pendingStart
            emit(.commandDeferred(command: "resume"))
        }
    }

    /// Changes a voice's parameters. Tracked while interrupted: applied at the end.
    func update(_ handle: VoiceHandle, command: String, _ change: (inout VoiceParameters) -> Void) throws {
        guard let voice = voice(for: handle) else { return }
        var parameters = voice.parameters
        change(&parameters)
        try parameters.validate(in: command)
        if (parameters.position == nil) != (voice.parameters.position == nil) {
            throw InterludeError(.invalidArgument, "\(command): a voice cannot switch between positional and unpositioned while playing")
        }
        voice.parameters = parameters
        if session.state.isActive {
            withAL(command) { _ in try applyParameters(of: voice) }
        } else {
            emit(.commandDeferred(command: command))
        }
    }

    /// Reads every playing voice's offset into the engine's own position, and ends one-shots
    /// that have finished.
    func serviceVoices(on device: ALDevice) throws {
        for case let voice? in voiceSlots {
            guard let source = voice.source, voice.state == .playing else { continue }
            if try source.state() == .stopped {
                removeVoice(voice, isInsideAL: true)
            } else {
                voice.positionInFrames = try source.sampleOffset()
            }
        }
        try releaseDeferredSources(on: device)
    }
}
