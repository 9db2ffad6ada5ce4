extension EngineCore {
    /// The live voice a handle names, or nil for a stale or foreign handle.
    func voice(for handle: VoiceHandle) -> Voice? {
        guard handle.engineID == engineID, handle.slot >= 0, handle.slot < voiceSlots.count,
              slotGenerations[handle.slot] == handle.generation else { return nil }
        return voiceSlots[handle.slot]
    }

    /// Every live voice (allocates: not for the update's hot path).
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
    /// otherwise when the session is active again).
    func removeVoice(_ voice: Voice) {
        let slot = voice.handle.slot
        guard voiceSlots[slot] === voice else { return }
        voice.markRemoved()
        voiceSlots[slot] = nil
        slotGenerations[slot] &+= 1
        freeSlots.append(slot)
        liveVoiceCount -= 1
        if let source = voice.source {
            voice.source = nil
            realVoiceCount -= 1
            sourcesToRelease.append(source)
            withAL("stop") { device in try releaseDeferredSources(on: device) }
        }
    }

    /// Stops and frees the sources of voices ended while no AL call could be made, then deletes
    /// the buffers of sounds unloaded meanwhile (no source holds them any more).
    func releaseDeferredSources(on device: ALDevice) throws {
        while let source = sourcesToRelease.popLast() {
            try source.stop()
            try source.attach(nil)
            freeSources.append(source)
        }
        while let buffer = buffersToDelete.popLast() {
            try device.deleteBuffer(buffer)
        }
    }

    /// Starts a new voice. While interrupted, a looping voice is deferred to the end and a
    /// one-shot is dropped (its handle is already stale). When every real source is taken, the
    /// voice takes the source of the least important real voice if it matters more, and is
    /// virtual otherwise. `startFrame` and `startsPaused` serve snapshot restores: a paused
    /// voice gets its source on its first resume.
    func play(_ sound: Sound, parameters: VoiceParameters, isSystemSound: Bool, command: String,
              startFrame: Int = 0, startsPaused: Bool = false) throws -> VoiceHandle {
        guard sound.engineID == engineID, sounds[sound.id] != nil else {
            throw InterludeError(.foreignObject, "\(command): \(sound.name) was not loaded by this engine, or was unloaded")
        }
        try parameters.validate(in: command)
        guard liveVoiceCount < configuration.maximumVoiceCount else {
            throw InterludeError(.tooManyVoices, "\(command): \(sound.name): all \(configuration.maximumVoiceCount) voices are in use (Configuration.maximumVoiceCount)")
        }
        let handle = allocateSlot()
        if !session.state.isActive && (isSystemSound || !parameters.isLooping) {
            // Consume the slot's generation so the returned handle is stale.
            slotGenerations[handle.slot] &+= 1
            freeSlots.append(handle.slot)
            emit(.commandDropped(command: command))
            return handle
        }
        let voice = Voice(handle: handle, sound: sound, parameters: parameters, groupIndex: groups.index(of: parameters.group),
                          state: startsPaused ? .paused : session.state.isActive ? .playing : .pendingStart,
                          isSystemSound: isSystemSound, pool: pool)
        voice.positionInFrames = max(0, startFrame) % max(1, sound.frameCount)
        voiceSlots[handle.slot] = voice
        liveVoiceCount += 1
        if startsPaused {
            return handle
        }
        if session.state.isActive {
            withAL(command) { device in try admit(voice, on: device) }
        } else {
            emit(.commandDeferred(command: command))
        }
        return handle
    }

    /// Gives a new or resumed voice a source if the budget has one, or if it outranks the least
    /// important real voice; otherwise it stays virtual until an update finds it room.
    func admit(_ voice: Voice, on device: ALDevice) throws {
        if groups.pauses(voice.groupIndex) { return }
        if realVoiceCount >= realVoiceBudget {
            guard let weakest = weakestRealVoice(), score(of: voice) > score(of: weakest) else {
                startVirtualClock(of: voice)
                return
            }
            try makeVirtual(weakest)
        }
        try startOnAL(voice, on: device)
    }

    /// Gives `voice` a source (if it has none), sets it up at its tracked position and plays it.
    func startOnAL(_ voice: Voice, on device: ALDevice) throws {
        if voice.source == nil {
            try releaseDeferredSources(on: device)
            let source = try freeSources.popLast() ?? device.makeSource()
            voice.source = source
            realVoiceCount += 1
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

    /// Takes a real voice's source away, keeping its position: it goes on as a virtual voice.
    func makeVirtual(_ voice: Voice) throws {
        guard let source = voice.source else { return }
        voice.positionInFrames = try source.sampleOffset()
        try source.stop()
        try source.attach(nil)
        freeSources.append(source)
        voice.source = nil
        realVoiceCount -= 1
        startVirtualClock(of: voice)
    }

    /// A voice goes virtual between updates: the next update must advance it only by the time
    /// since now, not since the last update.
    func startVirtualClock(of voice: Voice) {
        voice.discountTime(seconds: secondsSinceUpdate)
    }

    /// Sends a voice's parameters to its source.
    func applyParameters(of voice: Voice) throws {
        guard let source = voice.source else { return }
        let parameters = voice.parameters
        try source.setGain(parameters.gain * groups.effectiveGain(of: voice.groupIndex))
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
        try applyEffects(of: voice)
    }

    /// Sends only what changed since `previous` to a voice's source: a game moving many voices
    /// every frame costs one AL call per voice, not a dozen.
    func applyChangedParameters(of voice: Voice, previous: VoiceParameters, previousGroupIndex: Int) throws {
        guard let source = voice.source else { return }
        let parameters = voice.parameters
        if parameters.gain != previous.gain || voice.groupIndex != previousGroupIndex {
            try source.setGain(parameters.gain * groups.effectiveGain(of: voice.groupIndex))
        }
        if parameters.pitch != previous.pitch { try source.setPitch(parameters.pitch) }
        if parameters.isLooping != previous.isLooping { try source.setLooping(parameters.isLooping) }
        if let position = parameters.position {
            if parameters.isRelativeToListener != previous.isRelativeToListener {
                try source.setRelativeToListener(parameters.isRelativeToListener)
            }
            if position != previous.position { try source.setPosition(position) }
            if parameters.velocity != previous.velocity { try source.setVelocity(parameters.velocity) }
            if parameters.referenceDistance != previous.referenceDistance { try source.setReferenceDistance(parameters.referenceDistance) }
            if parameters.maxDistance != previous.maxDistance { try source.setMaxDistance(parameters.maxDistance) }
            if parameters.rolloffFactor != previous.rolloffFactor { try source.setRolloffFactor(parameters.rolloffFactor) }
        }
        if parameters.reverbZone != previous.reverbZone || parameters.lowPassGainHF != previous.lowPassGainHF
            || voice.groupIndex != previousGroupIndex {
            try applyEffects(of: voice)
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
            voice.state = .playing
            withAL("resume") { device in
                if let source = voice.source {
                    try source.play()
                } else {
                    try admit(voice, on: device)
                }
            }
        } else if voice.state != .pendingStart {
            voice.state = .pendingStart
            emit(.commandDeferred(command: "resume"))
        }
    }

    /// Changes a voice's parameters. Tracked while interrupted: applied at the end.
    /// - Parameter call: the public call, named in errors; `command` names the change in events.
    func update(_ handle: VoiceHandle, command: String, call: String, _ change: (inout VoiceParameters) -> Void) throws {
        guard let voice = voice(for: handle) else { return }
        var parameters = voice.parameters
        change(&parameters)
        try parameters.validate(in: call)
        if (parameters.position == nil) != (voice.parameters.position == nil) {
            throw InterludeError(.invalidArgument, "\(call): a voice cannot switch between positional and unpositioned while playing")
        }
        let previous = voice.parameters
        let previousGroupIndex = voice.groupIndex
        voice.parameters = parameters
        voice.groupIndex = groups.index(of: parameters.group)
        if session.state.isActive {
            withAL(command) { _ in try applyChangedParameters(of: voice, previous: previous, previousGroupIndex: previousGroupIndex) }
        } else {
            emit(.commandDeferred(command: command))
        }
    }

    /// Moves a positional voice: the hot path of a game moving its emitters every frame, so it
    /// validates and sends only the position, and makes no AL call for a virtual voice.
    func setPosition(_ position: Vector3, of handle: VoiceHandle) throws {
        guard let voice = voice(for: handle) else { return }
        try Validate.vector(position, "position", in: "setPosition")
        guard voice.parameters.position != nil else {
            throw InterludeError(.invalidArgument, "setPosition: a voice cannot switch between positional and unpositioned while playing")
        }
        voice.move(to: position)
        if session.state.isActive {
            if let source = voice.source {
                withAL("set") { _ in try source.setPosition(position) }
            }
        } else {
            emit(.commandDeferred(command: "set"))
        }
    }

    /// Moves many positional voices in one go: everything is validated first, then sent in one
    /// AL block (one context lock for all), or tracked with one deferred event while interrupted.
    func setPositions(_ positions: [Vector3], of handles: [VoiceHandle]) throws {
        guard positions.count == handles.count else {
            throw InterludeError(.invalidArgument, "setPositions: \(positions.count) positions for \(handles.count) voices")
        }
        for index in handles.indices {
            guard let voice = voice(for: handles[index]) else { continue }
            try Validate.vector(positions[index], "position", in: "setPositions")
            guard voice.parameters.position != nil else {
                throw InterludeError(.invalidArgument, "setPositions: a voice cannot switch between positional and unpositioned while playing")
            }
        }
        if session.state.isActive {
            withAL("set") { _ in
                try ALSource.setPositions { setPosition in
                    for index in handles.indices {
                        guard let voice = voice(for: handles[index]) else { continue }
                        voice.move(to: positions[index])
                        if let source = voice.source { setPosition(source, positions[index]) }
                    }
                }
            }
        } else {
            for index in handles.indices { voice(for: handles[index])?.move(to: positions[index]) }
            emit(.commandDeferred(command: "set"))
        }
    }

    /// Starts a gain or pitch fade on a voice; a fade of the gain to 0 may stop it at the end.
    func fade(_ handle: VoiceHandle, gainTo targetGain: Float?, pitchTo targetPitch: Float?, durationSeconds: Double,
              curve: FadeCurve, stopsAtEnd: Bool, command: String) throws {
        if let targetGain { try Validate.gain(targetGain, in: command) }
        if let targetPitch { try Validate.pitch(targetPitch, in: command) }
        try Validate.seconds(durationSeconds, "duration", in: command)
        guard let voice = voice(for: handle) else { return }
        if let targetGain {
            voice.gainFade = Fade(startGain: voice.parameters.gain, targetGain: targetGain, durationSeconds: durationSeconds, curve: curve)
            voice.stopsWhenFadeEnds = stopsAtEnd
        }
        if let targetPitch {
            voice.pitchFade = Fade(startGain: voice.parameters.pitch, targetGain: targetPitch, durationSeconds: durationSeconds, curve: curve)
        }
        if durationSeconds == 0 { try advanceFades(of: voice, bySeconds: 0) }
    }

    /// Moves a voice's fades on, sending the new gain and pitch to its source. Returns false
    /// when a fade-out has ended and the voice was stopped.
    @discardableResult
    func advanceFades(of voice: Voice, bySeconds seconds: Double) throws -> Bool {
        if var fade = voice.gainFade {
            fade.advance(bySeconds: seconds)
            voice.parameters.gain = fade.gain
            voice.gainFade = fade.isFinished ? nil : fade
            if fade.isFinished && voice.stopsWhenFadeEnds {
                removeVoice(voice)
                return false
            }
            try voice.source?.setGain(voice.parameters.gain * groups.effectiveGain(of: voice.groupIndex))
        }
        if var fade = voice.pitchFade {
            fade.advance(bySeconds: seconds)
            voice.parameters.pitch = max(Float.leastNormalMagnitude, fade.gain)
            voice.pitchFade = fade.isFinished ? nil : fade
            try voice.source?.setPitch(voice.parameters.pitch)
        }
        return true
    }

    /// Pauses or resumes every voice of a group (and streams in it) without changing their own
    /// state: a group pause is lifted by the group, a voice pause by the voice.
    func setGroupPaused(_ paused: Bool, group: Int) {
        groups.setPaused(paused, of: group)
        withAL("setGroupPaused") { device in
            for case let voice? in voiceSlots where voice.state == .playing && (voice.groupIndex == group || group == GroupTable.masterIndex) {
                if let source = voice.source {
                    if paused { try source.pause() } else if !groups.pauses(voice.groupIndex) { try source.play() }
                }
            }
            for stream in allStreams where stream.state == .playing
                && (stream.channel.groupIndex == group || group == GroupTable.masterIndex) {
                if paused { try stream.pause() } else if !groups.pauses(stream.channel.groupIndex) { try stream.play() }
            }
            if !paused { try assignSources(on: device) }
        }
    }
}
