import COpenAL

/// Source properties set on (or offsets read from) many sources and checked once for the whole
/// batch: `alGetError` reports the first error since the batch began, so a failure still
/// surfaces, named for the batch. (In OpenAL Soft 1.19 every `alGetError` takes a process-wide
/// lock; one per property set was most of the engine's cost of moving many voices.) Made only by
/// ``run(_:_:)``.
struct ALSourceBatch {
    private init() {}

    /// Runs `body` with a batch, then checks every call it made at once, naming them `calls` in
    /// an error. (Every checked call leaves the error clear, so the check reports only the
    /// batch's own calls.)
    static func run(_ calls: StaticString = "alSource* in a batch", _ body: (ALSourceBatch) throws -> Void) throws {
        try body(ALSourceBatch())
        try ALCheck.al(calls)
    }

    /// Checks the calls made so far: before a call that is checked on its own, so an earlier
    /// error is not reported under its name.
    func check() throws {
        try ALCheck.al("alSource* in a batch")
    }

    /// AL_GAIN.
    func setGain(_ source: ALSource, _ gain: Float) { alSourcef(source.name, AL_GAIN, gain) }
    /// AL_MAX_GAIN: the gain AL_GAIN is clamped to.
    func setMaxGain(_ source: ALSource, _ gain: Float) { alSourcef(source.name, AL_MAX_GAIN, gain) }
    /// AL_PITCH.
    func setPitch(_ source: ALSource, _ pitch: Float) { alSourcef(source.name, AL_PITCH, pitch) }
    /// AL_LOOPING.
    func setLooping(_ source: ALSource, _ isLooping: Bool) { alSourcei(source.name, AL_LOOPING, isLooping ? 1 : 0) }
    /// AL_SOURCE_RELATIVE.
    func setRelativeToListener(_ source: ALSource, _ isRelative: Bool) {
        alSourcei(source.name, AL_SOURCE_RELATIVE, isRelative ? 1 : 0)
    }
    /// AL_POSITION.
    func setPosition(_ source: ALSource, _ position: Vector3) {
        alSource3f(source.name, AL_POSITION, position.x, position.y, position.z)
    }
    /// AL_VELOCITY.
    func setVelocity(_ source: ALSource, _ velocity: Vector3) {
        alSource3f(source.name, AL_VELOCITY, velocity.x, velocity.y, velocity.z)
    }
    /// AL_REFERENCE_DISTANCE.
    func setReferenceDistance(_ source: ALSource, _ distance: Float) { alSourcef(source.name, AL_REFERENCE_DISTANCE, distance) }
    /// AL_MAX_DISTANCE.
    func setMaxDistance(_ source: ALSource, _ distance: Float) { alSourcef(source.name, AL_MAX_DISTANCE, distance) }
    /// AL_ROLLOFF_FACTOR.
    func setRolloffFactor(_ source: ALSource, _ factor: Float) { alSourcef(source.name, AL_ROLLOFF_FACTOR, factor) }
    /// AL_SAMPLE_OFFSET of the source named `sourceName`, in frames; `fallbackFrames` when the
    /// call fails (it writes nothing then, and the batch's check reports the error).
    func sampleOffset(ofSourceNamed sourceName: UInt32, fallbackFrames: Int) -> Int {
        var offset = ALint(clamping: fallbackFrames)
        alGetSourcei(sourceName, AL_SAMPLE_OFFSET, &offset)
        return Int(offset)
    }
}
