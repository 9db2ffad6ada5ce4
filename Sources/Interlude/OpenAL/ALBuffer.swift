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

    /// `alBufferStorageSOFT` without data: room for `byteCount` bytes of interleaved PCM in
    /// `format`, 16-bit or float (`isFloat`), that may be mapped for reading and writing, also
    /// while a source plays it (persistent). No page is touched until it is written.
    func allocate(byteCount: Int, format: AudioFormat, isFloat: Bool, using mapping: ALBufferMapping) throws {
        let alFormat = switch (format.channelCount, isFloat) {
        case (1, false): AL_FORMAT_MONO16
        case (_, false): AL_FORMAT_STEREO16
        case (1, true): AL_FORMAT_MONO_FLOAT32
        case (_, true): AL_FORMAT_STEREO_FLOAT32
        }
        guard let size = ALsizei(exactly: byteCount) else {
            throw InterludeError(.unsupportedFormat, "alBufferStorageSOFT: \(byteCount) bytes is more than one OpenAL buffer holds")
        }
        mapping.storage(name, alFormat, nil, size, ALsizei(format.sampleRate),
                        ALBufferMapping.readBit | ALBufferMapping.writeBit | ALBufferMapping.persistentBit)
        try ALCheck.al("alBufferStorageSOFT")
    }

    /// Maps `byteCount` bytes from `byteOffset` of a buffer made by
    /// ``allocate(byteCount:format:isFloat:using:)``, for writing (`writes`) or reading, runs
    /// `body` on them and unmaps. The caller has the buffer's context current.
    func withMappedBytes<Result>(byteOffset: Int, byteCount: Int, writes: Bool, using mapping: ALBufferMapping,
                                 _ body: (UnsafeMutableRawBufferPointer) throws -> Result) throws -> Result {
        let bytes = try map(byteOffset: byteOffset, byteCount: byteCount, writes: writes, using: mapping)
        defer { unmap(using: mapping) }
        return try body(bytes)
    }

    /// `alMapBufferSOFT`: `byteCount` bytes from `byteOffset`, for writing or reading, until
    /// ``unmap(using:)``. The memory may be used with no context current (a new device's
    /// buffer is filled from a file that way, with no lock held); the map and unmap calls need
    /// the buffer's context current.
    func map(byteOffset: Int, byteCount: Int, writes: Bool, using mapping: ALBufferMapping) throws -> UnsafeMutableRawBufferPointer {
        guard let offset = ALsizei(exactly: byteOffset), let count = ALsizei(exactly: byteCount) else {
            throw InterludeError(.openAL, "alMapBufferSOFT: \(byteCount) bytes at \(byteOffset) is out of range")
        }
        let access = (writes ? ALBufferMapping.writeBit : ALBufferMapping.readBit) | ALBufferMapping.persistentBit
        let start = mapping.map(name, offset, count, access)
        try ALCheck.al("alMapBufferSOFT")
        guard let start else { throw InterludeError(.openAL, "alMapBufferSOFT: no mapping") }
        return UnsafeMutableRawBufferPointer(start: start, count: byteCount)
    }

    /// `alUnmapBufferSOFT`. It can fail only on a buffer not mapped, which ``map(byteOffset:byteCount:writes:using:)``
    /// rules out, so its error is cleared rather than thrown: it runs where the mapping's user
    /// is already done (a `defer`, a cleanup after a failed read).
    func unmap(using mapping: ALBufferMapping) {
        mapping.unmap(name)
        _ = alGetError()
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
