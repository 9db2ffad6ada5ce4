/// A loaded sound's interleaved PCM as the engine keeps it and uploads it: 16-bit integers for
/// a source that holds no more than 16 bits (a 16-bit WAV, a FLAC of 16 bits or fewer), half
/// the memory of float and exactly the same sound, and 32-bit float for everything else.
enum SoundSamples: Sendable {
    case int16([Int16])
    case float32([Float])

    /// How many samples (frames times channels).
    var count: Int {
        switch self {
        case .int16(let samples): samples.count
        case .float32(let samples): samples.count
        }
    }

    /// The samples are 32-bit float.
    var isFloat: Bool {
        if case .float32 = self { return true }
        return false
    }

    /// Sample `index` as float (v / 32768 for 16-bit samples).
    subscript(index: Int) -> Float {
        switch self {
        case .int16(let samples): Float(samples[index]) * (1 / 32768)
        case .float32(let samples): samples[index]
        }
    }

    /// The average of the two channels of stereo samples, as float: for 16-bit samples,
    /// exactly the average of their float values (v / 32768), as OpenAL Soft reads them.
    func stereoDownmix() -> [Float] {
        let frameCount = count / 2
        return [Float](unsafeUninitializedCapacity: frameCount) { mono, initialized in
            switch self {
            case .int16(let samples): samples.withUnsafeBytes { Self.stereoDownmix(UnsafeRawBufferPointer($0), isFloat: false, into: mono) }
            case .float32(let samples): samples.withUnsafeBytes { Self.stereoDownmix(UnsafeRawBufferPointer($0), isFloat: true, into: mono) }
            }
            initialized = frameCount
        }
    }

    /// The average of the two channels of the interleaved stereo samples in `bytes` (16-bit or
    /// float), written to `mono` (one value per frame): the same values as ``stereoDownmix()``.
    static func stereoDownmix(_ bytes: UnsafeRawBufferPointer, isFloat: Bool, into mono: UnsafeMutableBufferPointer<Float>) {
        if isFloat {
            let samples = bytes.assumingMemoryBound(to: Float.self)
            for frame in 0..<min(mono.count, samples.count / 2) {
                mono[frame] = 0.5 * (samples[2 * frame] + samples[2 * frame + 1])
            }
        } else {
            let samples = bytes.assumingMemoryBound(to: Int16.self)
            for frame in 0..<min(mono.count, samples.count / 2) {
                mono[frame] = 0.5 * (Float(samples[2 * frame]) * (1 / 32768) + Float(samples[2 * frame + 1]) * (1 / 32768))
            }
        }
    }
}
