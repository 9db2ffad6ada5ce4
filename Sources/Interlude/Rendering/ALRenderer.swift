/// Brings OpenAL in line with the voices: the only code that drives a voice's `ALSource`. It
/// owns the pool of free sources, the sources of voices ended while no AL call could be made,
/// and the EFX objects (each reverb zone's effect and slot, the occlusion filter). It gives
/// voices sources and takes them back, and sends parameter changes. Every method runs with the
/// context current (see ``ALGate``).
final class ALRenderer {
    private let sounds: SoundBank
    private let mixer: GroupMixer
    @exclusivity(unchecked) private var freeSources: [ALSource] = []
    /// Sources of voices stopped while interrupted: stopped and freed when the session is active.
    @exclusivity(unchecked) private var sourcesToRelease: [ALSource] = []
    /// The stream buffers of streamed voices ended while interrupted: deleted once their
    /// sources are stopped and emptied.
    @exclusivity(unchecked) private var buffersToDelete: [ALBuffer] = []
    @exclusivity(unchecked) private var realCount = 0
    /// The sources whose AL_MAX_GAIN was raised above 1 for a gain above 1.
    @exclusivity(unchecked) private var raisedSources: Set<UInt32> = []
    /// Each reverb zone's effect and slot on the current device, made on first use.
    @exclusivity(unchecked) private var zoneObjects: [ReverbZoneID: (effect: UInt32, slot: UInt32)] = [:]
    /// The occlusion filter the voices share on the current device.
    @exclusivity(unchecked) private var lowPassFilter = DirectLowPass()

    /// Says whether a source may start now (not while the mixer is held), and gives the open
    /// device to the work it runs.
    private let gate: ALGate

    init(sounds: SoundBank, mixer: GroupMixer, gate: ALGate) {
        self.sounds = sounds
        self.mixer = mixer
        self.gate = gate
    }

    /// Voices holding a source.
    var realVoiceCount: Int { realCount }
    /// Sources made and waiting for a voice (for tests of source reuse).
    var freeSourceCount: Int { freeSources.count }

    // MARK: Sources

    /// Gives `voice` a source (if it has none), sets it up at its tracked position and plays it.
    /// A streamed voice's queue is refilled from that position: the decode thread seeks there.
    func start(_ voice: Voice) throws {
        if voice.source == nil {
            let device = try gate.device()
            try releaseDeferredSources()
            let source = try freeSources.popLast() ?? device.makeSource()
            if let sound = voice.sound {
                do {
                    try source.attach(sounds.buffers(for: sound, mono: voice.usesMonoBuffer).buffer(mono: voice.usesMonoBuffer))
                } catch {
                    // No buffer (alGenBuffers failed): the source goes back to the pool and the voice
                    // stays virtual, so a later update tries again, rather than holding a silent source.
                    freeSources.append(source)
                    throw error
                }
            }
            voice.source = source
            realCount += 1
            if let stream = voice.stream {
                do {
                    try applyParameters(of: voice)
                    try stream.seek(toFrame: min(voice.positionInFrames, stream.frameCount))
                    try stream.attach(source, on: device)
                } catch {
                    // As for a sound without a buffer: virtual again, tried again by a later update.
                    voice.source = nil
                    realCount -= 1
                    freeSources.append(source)
                    throw error
                }
            } else {
                try applyParameters(of: voice)
                if voice.positionInFrames > 0 {
                    try source.setSampleOffset(voice.positionInFrames % max(1, voice.frameCount))
                }
            }
        }
        try play(voice)
        voice.state = .playing
    }

    /// Takes a real voice's source away, keeping its position. Returns false when it had none.
    /// A streamed voice's buffers are deleted: a virtual stream holds no AL memory.
    func takeSource(from voice: Voice) throws -> Bool {
        guard let source = voice.source else { return false }
        try syncPosition(of: voice)
        if let stream = voice.stream {
            try stream.detach(from: gate.device())
        } else {
            try source.stop()
            try source.attach(nil)
        }
        freeSources.append(source)
        voice.source = nil
        realCount -= 1
        return true
    }

    /// A removed voice's place: its source (and, for a streamed voice, its buffers) stopped and freed by
    /// ``releaseDeferredSources()``.
    func release(_ slot: RenderSlot, buffers: [ALBuffer]) {
        realCount -= 1
        sourcesToRelease.append(slot.source)
        buffersToDelete += buffers
    }

    /// Frees what waited for AL calls: the sources of voices ended meanwhile, their stream
    /// buffers, then the buffers of sounds unloaded meanwhile (no source holds them any more).
    func releaseDeferred() throws {
        try releaseDeferredSources()
        try sounds.deleteUnloadedBuffers()
    }

    /// Stops and frees the sources of voices ended while no AL call could be made, then deletes
    /// the stream buffers they held.
    private func releaseDeferredSources() throws {
        while let source = sourcesToRelease.popLast() {
            try source.stop()
            try source.attach(nil)
            freeSources.append(source)
        }
        guard !buffersToDelete.isEmpty else { return }
        let device = try gate.device()
        while let buffer = buffersToDelete.popLast() {
            try device.deleteBuffer(buffer)
        }
    }

    /// Reads a real voice's position from its source (a stream's: from its queue).
    func syncPosition(of voice: Voice) throws {
        guard let source = voice.source else { return }
        if let stream = voice.stream {
            try stream.syncPosition()
            voice.positionInFrames = stream.positionInFrames
        } else {
            voice.positionInFrames = try source.sampleOffset()
        }
    }

    /// A one-shot's source has stopped by itself; a stream's has played its last queued frame.
    func hasFinished(_ voice: Voice) throws -> Bool {
        guard let source = voice.source else { return false }
        if let stream = voice.stream { return stream.isFinished }
        return try source.state() == .stopped
    }

    /// One update of a real streamed voice's queue: refills it, restarts a source that ran dry
    /// and reads the position (restarting none while the mixer is held). With `waiting` (an
    /// offline render) it waits for the decode thread.
    func service(_ stream: StreamQueue, of voice: Voice, waiting: Bool) throws {
        try stream.service(mayStart: gate.startsSources && voice.state == .playing, waiting: waiting)
        voice.positionInFrames = stream.positionInFrames
    }

    func pause(_ voice: Voice) throws { try voice.source?.pause() }
    /// Plays a real voice; a stream with nothing queued yet starts on the update that queues.
    /// While the mixer is held its source stays where it is, and the hold's end starts it
    /// (``playHeld(_:)``). A source reused from the pool reads AL_STOPPED, which would count its
    /// new one-shot as ended: rewound, it reads AL_INITIAL until then.
    func play(_ voice: Voice) throws {
        guard gate.startsSources else {
            if voice.stream == nil, let source = voice.source, try source.state() == .stopped { try source.rewind() }
            return
        }
        if let stream = voice.stream {
            try stream.play()
        } else {
            try voice.source?.play()
        }
    }

    /// Pauses many sources in one call, so they all stop on the same mix.
    func pause(_ slots: [RenderSlot]) throws { try ALSource.pause(slots.map(\.source)) }
    /// Plays the sources in many places in one call, so they all start on the same mix; while
    /// the mixer is held, none (the hold's end starts them).
    func play(_ slots: [RenderSlot]) throws {
        guard gate.startsSources else { return }
        try ALSource.play(slots.map(\.source))
    }
    /// The end of a mixer hold: plays, in one call, the sources in those of `slots` that the
    /// hold paused or kept from starting (never played, with something queued). A playing one
    /// would start over; a stream's source with nothing queued yet is started by its refill.
    func playHeld(_ slots: [RenderSlot]) throws {
        var held: [ALSource] = []
        for source in slots.map(\.source) {
            switch try source.state() {
            case .paused: held.append(source)
            case .initial where try source.queuedBufferCount() > 0: held.append(source)
            default: break
            }
        }
        try ALSource.play(held)
    }

    // MARK: Parameters

    /// Sends a voice's parameters to its source.
    func applyParameters(of voice: Voice) throws {
        guard let source = voice.source else { return }
        let parameters = voice.parameters
        let gain = voice.playedGain(groupGain: mixer.effectiveGain(of: voice.groupIndex))
        if let maximum = maximumGain(for: gain, of: source) { try source.setMaxGain(maximum) }
        try source.setGain(gain)
        try source.setPitch(voice.playedPitch)
        // A stream loops in its queue (the decode thread reads on across the seam), never in AL.
        try source.setLooping(voice.stream == nil && parameters.isLooping)
        if let position = parameters.position {
            try source.setDirectChannels(false)
            try source.setRelativeToListener(parameters.isRelativeToListener)
            try source.setPosition(position)
            try source.setVelocity(parameters.velocity)
            try source.setReferenceDistance(parameters.referenceDistance)
            try source.setMaxDistance(parameters.maxDistance)
            try source.setRolloffFactor(parameters.rolloffFactor)
        } else {
            try source.setDirectChannels(voice.format.channelCount == 2)
            try source.setRelativeToListener(true)
            try source.setPosition(.zero)
            try source.setVelocity(.zero)
            try source.setRolloffFactor(0)
        }
        try applyEffects(of: voice)
    }

    /// Sends every change recorded in `table`'s entries to the voices that still hold a source,
    /// in one batch checked once: a game moving many voices every frame costs one unchecked AL
    /// call per voice.
    func sendChanges(of table: VoiceTable) throws {
        try ALSourceBatch.run { batch in
            let entries = table.entries
            try entries.drainChanges { slot, changes in
                // A move alone, the common case, needs only the entry.
                if changes == .position, let target = entries.realPosition(ofSlot: slot) {
                    batch.setPosition(ALSource(name: target.sourceName), target.position)
                    return
                }
                guard let voice = table.voice(inSlot: slot) else { return }
                try applyChanges(changes, of: voice, in: batch)
            }
        }
    }

    /// Reads the playing frame of the real voices in `slots` from their sources into their
    /// entries, in one batch checked once.
    func readPositions(ofSlots slots: [Int32], in entries: VoicePoolStorage) throws {
        try ALSourceBatch.run("alGetSourcei(AL_SAMPLE_OFFSET) in a batch") { batch in
            entries.readPositions(ofSlots: slots) { batch.sampleOffset(ofSourceNamed: $0, fallbackFrames: $1) }
        }
    }

    /// Sends a real voice's changed parameters to its source, in the update's batch.
    private func applyChanges(_ changes: VoiceChanges, of voice: Voice, in batch: ALSourceBatch) throws {
        guard let source = voice.source else { return }
        if changes.contains(.gain) {
            let gain = voice.playedGain(groupGain: mixer.effectiveGain(of: voice.groupIndex))
            if let maximum = maximumGain(for: gain, of: source) { batch.setMaxGain(source, maximum) }
            batch.setGain(source, gain)
        }
        if changes.contains(.pitch) { batch.setPitch(source, voice.playedPitch) }
        if changes.contains(.looping) && voice.stream == nil { batch.setLooping(source, voice.isLooping) }
        if voice.isPositional {
            if changes.contains(.relativeToListener) { batch.setRelativeToListener(source, voice.isRelativeToListener) }
            if changes.contains(.position) { batch.setPosition(source, voice.position) }
            if changes.contains(.velocity) { batch.setVelocity(source, voice.velocity) }
            if changes.contains(.referenceDistance) { batch.setReferenceDistance(source, voice.referenceDistance) }
            if changes.contains(.maxDistance) { batch.setMaxDistance(source, voice.maxDistance) }
            if changes.contains(.rolloffFactor) { batch.setRolloffFactor(source, voice.rolloffFactor) }
        }
        if changes.contains(.effects) {
            try batch.check()
            try applyEffects(of: voice)
        }
    }

    /// Sends a real voice's gain, with its group's.
    func applyGain(of voice: Voice) throws {
        guard let source = voice.source else { return }
        let gain = voice.playedGain(groupGain: mixer.effectiveGain(of: voice.groupIndex))
        if let maximum = maximumGain(for: gain, of: source) { try source.setMaxGain(maximum) }
        try source.setGain(gain)
    }

    /// The AL_MAX_GAIN `source` needs for `gain`, or nil when it has it already. OpenAL clamps a
    /// source's gain to AL_MAX_GAIN, 1 by default: a gain above 1 (a quiet cue variant brought up
    /// to its loudness target, a snapshot's or a group's boost) raises the maximum with it, and
    /// a source raised before goes back to 1 when its gain does, for the next voice it plays.
    private func maximumGain(for gain: Float, of source: ALSource) -> Float? {
        if gain > 1 {
            raisedSources.insert(source.name)
            return gain
        }
        guard !raisedSources.isEmpty, raisedSources.remove(source.name) != nil else { return nil }
        return 1
    }

    // MARK: Effects

    /// Sends a real voice to its reverb zone (its own, or its group's) and sets its low-pass
    /// (occlusion, curves and mix snapshots together). Without ALC_EXT_EFX this does nothing.
    func applyEffects(of voice: Voice) throws {
        guard let source = voice.source else { return }
        let device = try gate.device()
        guard let efx = device.efx else { return }
        let zoneName = mixer.zone(ownZone: voice.ownReverbZone, groupIndex: voice.groupIndex)
        try source.setAuxiliarySend(slot: try zoneName.map { try slot(ofZone: $0, on: device) } ?? 0)
        try lowPassFilter.apply(voice.playedLowPass(groupLowPass: mixer.effectiveLowPass(of: voice.groupIndex)),
                          to: source, efx: efx, on: device)
    }

    /// The zone's slot on `device`, made on first use.
    private func slot(ofZone name: ReverbZoneID, on device: ALDevice) throws -> UInt32 {
        if let made = zoneObjects[name] { return made.slot }
        guard let preset = mixer.preset(ofZone: name), let made = try device.makeReverbSlot(preset) else { return 0 }
        zoneObjects[name] = made
        return made.slot
    }

    /// A zone is being replaced: its effect and slot are deleted when AL calls may be made,
    /// and otherwise forgotten (they go with the device).
    func forgetZoneUnlessDeleted(_ name: ReverbZoneID) {
        guard let made = zoneObjects.removeValue(forKey: name) else { return }
        gate.run("addReverbZone") { device in device.deleteReverbSlot(effect: made.effect, slot: made.slot) }
    }

    // MARK: Device

    /// Forgets every AL name: the device that held them is gone. The voices forget their
    /// sources through the voice table.
    func forgetDevice() {
        freeSources.removeAll()
        sourcesToRelease.removeAll()
        buffersToDelete.removeAll()
        zoneObjects.removeAll()
        raisedSources.removeAll()
        lowPassFilter.forgetDevice()
        realCount = 0
    }
}
