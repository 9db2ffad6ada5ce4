/// Decodes a sound file a chunk at a time, in the form a loaded sound keeps (16-bit for a
/// source of 16 bits or fewer, float otherwise), handing each chunk's bytes to a sink: the
/// load writes them into OpenAL's buffer as they come, and a new device's preparation into its
/// own. So the whole PCM never exists twice. Each read also gives the samples' checksum and
/// level envelope, and, when asked, their integrated loudness.
struct SoundFileReader {
    /// Frames decoded per chunk: 256 KiB of 16-bit stereo.
    static let chunkFrames = 65_536

    /// What a read gave.
    struct Result {
        var frameCount: Int
        var checksum: PCMChecksum
        var levels: SoundLevels
        /// The integrated loudness in LUFS, when the read measured it.
        var integratedLoudnessLUFS: Double?
        /// The decoder had more after `frameLimit` frames.
        var hasMore: Bool
    }

    /// Whether `decoder`'s samples are kept as 16-bit.
    static func isSixteenBit(_ decoder: any AudioDecoder) -> Bool {
        decoder.integerBitsPerSample.map { $0 <= 16 } ?? false
    }

    /// Reads up to `frameLimit` frames of `decoder` from where it stands, calling `sink` with
    /// each chunk's bytes and their byte offset from the start. `measuresLoudness`: also
    /// measures the samples' integrated loudness (a load does; a new device's upload, which
    /// reads the same samples again, does not).
    static func read(_ decoder: any AudioDecoder, frameLimit: Int, measuresLoudness: Bool,
                     into sink: (UnsafeRawBufferPointer, Int) throws -> Void) throws -> Result {
        let channelCount = decoder.format.channelCount
        let sixteenBit = isSixteenBit(decoder)
        var result = Result(frameCount: 0, checksum: PCMChecksum(), levels: SoundLevels(sampleRate: decoder.format.sampleRate), hasMore: false)
        let meter = measuresLoudness ? try LoudnessMeter(format: decoder.format, truePeak: false) : nil
        // A short sound's chunk is its own length (at least the one frame of the probe for more
        // below): a 0.1 s click does not zero and fault in 384 KiB of chunk it never uses.
        let bufferFrames = max(1, min(chunkFrames, frameLimit))
        var floats = [Float](repeating: 0, count: bufferFrames * channelCount)
        var shorts = [Int16](repeating: 0, count: sixteenBit ? bufferFrames * channelCount : 0)
        var byteOffset = 0
        while result.frameCount < frameLimit {
            let wanted = min(bufferFrames, frameLimit - result.frameCount)
            let frames = try floats.withUnsafeMutableBufferPointer { all in
                min(try decoder.read(into: UnsafeMutableBufferPointer(rebasing: all[0..<wanted * channelCount])), wanted)
            }
            if frames <= 0 { break }
            let count = frames * channelCount
            floats.withUnsafeBufferPointer { meter?.add(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            if sixteenBit {
                try shorts.withUnsafeMutableBufferPointer { shorts in
                    for index in 0..<count { shorts[index] = DecoderFactory.int16(floats[index]) }
                    let chunk = UnsafeBufferPointer(rebasing: shorts[0..<count])
                    result.checksum.add(chunk)
                    result.levels.add(chunk, channelCount: channelCount)
                    try sink(UnsafeRawBufferPointer(chunk), byteOffset)
                    byteOffset += count * MemoryLayout<Int16>.size
                }
            } else {
                try floats.withUnsafeBufferPointer { floats in
                    let chunk = UnsafeBufferPointer(rebasing: floats[0..<count])
                    result.checksum.add(chunk)
                    result.levels.add(chunk, channelCount: channelCount)
                    try sink(UnsafeRawBufferPointer(chunk), byteOffset)
                    byteOffset += count * MemoryLayout<Float>.size
                }
            }
            result.frameCount += frames
        }
        if result.frameCount == frameLimit {
            let probe = try floats.withUnsafeMutableBufferPointer { all in
                try decoder.read(into: UnsafeMutableBufferPointer(rebasing: all[0..<channelCount]))
            }
            result.hasMore = probe > 0
        }
        result.levels.finish()
        result.integratedLoudnessLUFS = meter?.finish().integratedLUFS
        return result
    }
}
