import COpenAL

/// An AL source name. Created and deleted only by ``ALDevice``, which owns every name it makes;
/// these wrappers only set and read it. Call with the device's context current and the engine
/// lock held.
struct ALSource: Hashable {
    let name: ALuint

    /// The source's state as OpenAL reports it.
    enum State {
        case initial, playing, paused, stopped
    }

    /// `alSourcePlay`.
    func play() throws { alSourcePlay(name); try ALCheck.al("alSourcePlay") }
    /// `alSourcePause`.
    func pause() throws { alSourcePause(name); try ALCheck.al("alSourcePause") }
    /// `alSourceStop`: also resets the offset to 0 and marks every queued buffer processed.
    func stop() throws { alSourceStop(name); try ALCheck.al("alSourceStop") }
    /// `alSourceRewind`: back to AL_INITIAL with no buffer processed.
    func rewind() throws { alSourceRewind(name); try ALCheck.al("alSourceRewind") }

    /// `alSourcePausev` over many sources in one call, so they all stop on the same mix.
    static func pause(_ sources: [ALSource]) throws {
        guard !sources.isEmpty else { return }
        let names = sources.map(\.name)
        alSourcePausev(ALsizei(names.count), names)
        try ALCheck.al("alSourcePausev")
    }

    /// `alSourcePlayv` over many sources in one call, so they all start on the same mix.
    static func play(_ sources: [ALSource]) throws {
        guard !sources.isEmpty else { return }
        let names = sources.map(\.name)
        alSourcePlayv(ALsizei(names.count), names)
        try ALCheck.al("alSourcePlayv")
    }

    /// AL_GAIN.
    func setGain(_ gain: Float) throws { try set(AL_GAIN, gain) }
    /// AL_MAX_GAIN: the gain AL_GAIN is clamped to.
    func setMaxGain(_ gain: Float) throws { try set(AL_MAX_GAIN, gain) }
    /// AL_PITCH.
    func setPitch(_ pitch: Float) throws { try set(AL_PITCH, pitch) }
    /// AL_LOOPING.
    func setLooping(_ isLooping: Bool) throws { try set(AL_LOOPING, Int32(isLooping ? 1 : 0)) }
    /// AL_POSITION.
    func setPosition(_ position: Vector3) throws { try set(AL_POSITION, position) }
    /// AL_VELOCITY.
    func setVelocity(_ velocity: Vector3) throws { try set(AL_VELOCITY, velocity) }
    /// AL_SOURCE_RELATIVE.
    func setRelativeToListener(_ isRelative: Bool) throws { try set(AL_SOURCE_RELATIVE, Int32(isRelative ? 1 : 0)) }
    /// AL_REFERENCE_DISTANCE.
    func setReferenceDistance(_ distance: Float) throws { try set(AL_REFERENCE_DISTANCE, distance) }
    /// AL_MAX_DISTANCE.
    func setMaxDistance(_ distance: Float) throws { try set(AL_MAX_DISTANCE, distance) }
    /// AL_ROLLOFF_FACTOR.
    func setRolloffFactor(_ factor: Float) throws { try set(AL_ROLLOFF_FACTOR, factor) }
    /// AL_DIRECT_CHANNELS_SOFT: a multichannel buffer goes straight to the matching output
    /// channels, without being panned.
    func setDirectChannels(_ isDirect: Bool) throws { try set(AL_DIRECT_CHANNELS_SOFT, Int32(isDirect ? 1 : 0)) }

    /// AL_SOURCE_RESAMPLER_SOFT (AL_SOFT_source_resampler): `index` is one of the context's
    /// resamplers, as ``ALResamplers/names(using:)`` lists them.
    func setResampler(index: Int32) throws { try set(AL_SOURCE_RESAMPLER_SOFT, index) }

    /// `alSourcef`.
    private func set(_ parameter: ALenum, _ value: Float) throws {
        alSourcef(name, parameter, value)
        try ALCheck.al("alSourcef")
    }

    /// `alSourcei`.
    private func set(_ parameter: ALenum, _ value: Int32) throws {
        alSourcei(name, parameter, value)
        try ALCheck.al("alSourcei")
    }

    /// `alSource3f`.
    private func set(_ parameter: ALenum, _ value: Vector3) throws {
        alSource3f(name, parameter, value.x, value.y, value.z)
        try ALCheck.al("alSource3f")
    }

    /// `alGetSourcei`.
    private func integer(_ parameter: ALenum) throws -> Int32 {
        var value: ALint = 0
        alGetSourcei(name, parameter, &value)
        try ALCheck.al("alGetSourcei")
        return value
    }

    /// AL_SOURCE_STATE through `alGetSourcei`.
    func state() throws -> State {
        #if DEBUG
        try ALFaults.check(.sourceState(sourceName: name), "alGetSourcei(AL_SOURCE_STATE)", error: "AL_INVALID_NAME")
        #endif
        switch try integer(AL_SOURCE_STATE) {
        case AL_PLAYING: return .playing
        case AL_PAUSED: return .paused
        case AL_STOPPED: return .stopped
        default: return .initial
        }
    }

    /// AL_SAMPLE_OFFSET: the play position in frames into the current buffer.
    func sampleOffset() throws -> Int { Int(try integer(AL_SAMPLE_OFFSET)) }

    /// Sets AL_SAMPLE_OFFSET; on a stopped or initial source it applies at the next play.
    func setSampleOffset(_ frame: Int) throws { try set(AL_SAMPLE_OFFSET, Int32(clamping: frame)) }

    /// Attaches one static buffer (AL_BUFFER), or detaches with 0.
    func attach(_ buffer: ALBuffer?) throws { try set(AL_BUFFER, Int32(bitPattern: buffer?.name ?? 0)) }

    /// `alSourceQueueBuffers` with one buffer.
    func queue(_ buffer: ALBuffer) throws {
        var bufferName = buffer.name
        alSourceQueueBuffers(name, 1, &bufferName)
        try ALCheck.al("alSourceQueueBuffers")
    }

    /// `alSourceUnqueueBuffers` with one buffer: the oldest processed one.
    func unqueueOne() throws -> ALBuffer {
        var bufferName: ALuint = 0
        alSourceUnqueueBuffers(name, 1, &bufferName)
        try ALCheck.al("alSourceUnqueueBuffers")
        return ALBuffer(name: bufferName)
    }

    /// AL_BUFFERS_PROCESSED.
    func processedBufferCount() throws -> Int { Int(try integer(AL_BUFFERS_PROCESSED)) }
    /// AL_BUFFERS_QUEUED: buffers queued, played or not (1 for a source with a static buffer).
    func queuedBufferCount() throws -> Int { Int(try integer(AL_BUFFERS_QUEUED)) }
}
