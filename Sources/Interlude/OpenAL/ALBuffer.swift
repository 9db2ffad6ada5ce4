import COpenAL

/// An AL buffer name. Created and deleted only by ``ALDevice``, which owns every name it makes.
struct ALBuffer: Hashable {
    let name: ALuint

    /// `alBufferData` with interleaved 32-bit float PCM (AL_EXT_FLOAT32), mono or stereo.
    func upload(_ samples: UnsafeBufferPointer<Float>, format: AudioFormat) throws {
        let alFormat = format.channelCount == 1 ? AL_FORMAT_MONO_FLOAT32 : AL_FORMAT_STEREO_FLOAT32
        alBufferData(name, alFormat, samples.baseAddress, ALsizei(samples.count * MemoryLayout<Float>.size), ALsizei(format.sampleRate))
        try ALCheck.al("alBufferData")
    }

    /// `alBufferData` with interleaved signed 16-bit PCM (AL_FORMAT_MONO16 / STEREO16), mono or
    /// stereo. OpenAL Soft keeps it 16-bit and reads each sample as v / 32768.
    func upload(_ samples: UnsafeBufferPointer<Int16>, format: AudioFormat) throws {
        let alFormat = format.channelCount == 1 ? AL_FORMAT_MONO16 : AL_FORMAT_STEREO16
        alBufferData(name, alFormat, samples.baseAddress, ALsizei(samples.count * MemoryLayout<Int16>.size), ALsizei(format.sampleRate))
        try ALCheck.al("alBufferData")
    }

    /// AL_LOOP_POINTS_SOFT (AL_SOFT_loop_points): a looping source plays the buffer from its
    /// start, then repeats `region` (frames, end exclusive). Set before the buffer is attached
    /// to any source; OpenAL refuses it on a buffer in use.
    func setLoopPoints(_ region: Range<Int>) throws {
        let points: [ALint] = [ALint(clamping: region.lowerBound), ALint(clamping: region.upperBound)]
        alBufferiv(name, AL_LOOP_POINTS_SOFT, points)
        try ALCheck.al("alBufferiv(AL_LOOP_POINTS_SOFT)")
    }
}
