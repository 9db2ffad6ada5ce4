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
        switch self {
        case .int16(let samples):
            let frameCount = samples.count / 2
            return [Float](unsafeUninitializedCapacity: frameCount) { mono, initialized in
                for frame in 0..<frameCount {
                    mono[frame] = 0.5 * (Float(samples[2 * frame]) * (1 / 32768) + Float(samples[2 * frame + 1]) * (1 / 32768))
                }
                initialized = frameCount
            }
        case .float32(let samples):
            let frameCount = samples.count / 2
            return [Float](unsafeUninitializedCapacity: frameCount) { mono, initialized in
                for frame in 0..<frameCount {
                    mono[frame] = 0.5 * (samples[2 * frame] + samples[2 * frame + 1])
                }
                initialized = frameCount
            }
        }
    }
}
