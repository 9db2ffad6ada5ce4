/// A decoded asset, ready to play many times at once: immutable and Sendable once loaded.
///
/// Its samples live in OpenAL's buffer. A sound loaded from a file keeps no other copy: a new
/// device (after a device loss or a switch) decodes the file again, off the engine's lock, and
/// checks it is still the same audio. A sound made from samples (`makeSound`) or from a game's
/// own decoder (`loadSound(decoder:)`) keeps its samples in the engine's memory too, since
/// nothing else could give them again. A stereo sound played at a position needs a mono
/// downmix, because OpenAL only places mono sources: it is made from the buffer when the first
/// positional voice needs it, uploaded, and not kept here.
public final class Sound: Sendable, CustomStringConvertible {
    /// The file it came from, or the name it was given.
    public let name: String
    /// Its decoded format.
    public let format: AudioFormat
    /// Its length in frames.
    public let frameCount: Int
    /// Its length in seconds.
    public var durationSeconds: Double { Double(frameCount) / Double(format.sampleRate) }
    /// The frames a looping voice of it repeats, end exclusive, from the file's loop tags
    /// (``AudioDecoder/loopRegion``); nil: the whole sound. The first pass plays from frame 0.
    public let loopRegion: Range<Int>?
    /// Its integrated loudness in LUFS (ITU-R BS.1770-4 / EBU R128, gated; see ``Loudness``);
    /// -infinity for silence. What a loudness target brings it to. Measured once, never under
    /// the engine's lock: a file sound's as it is decoded at load; a sound made from samples or
    /// a game's decoder, whose samples are kept, when first asked for (by this property, or by
    /// ``SoundEngine/makeCue(named:_:)`` for a cue with a loudness target), so that a game that
    /// never asks does not pay for it.
    public var integratedLoudnessLUFS: Double {
        loudness.withLock { measured in
            if let measured { return measured }
            let value = kept.current.map { Self.integratedLoudness(of: $0, format: format) } ?? -.infinity
            measured = value
            return value
        }
    }

    /// Its samples are 32-bit float; 16-bit otherwise (a source of 16 bits or fewer).
    let isFloat: Bool
    /// The samples in Swift while the engine keeps them (see ``KeptSamples``).
    let kept: KeptSamples
    /// The file a new device decodes it from; nil for a sound whose samples are always kept.
    let file: SoundFile?
    /// Unique within the process; keys the engine's AL buffers.
    let id: Int
    /// The engine that loaded it.
    let engineID: Int
    private let levels: SoundLevels
    /// The integrated loudness once measured; nil until then.
    private let loudness: AnnotatedMutex<Double?>

    /// A sound whose samples are given: kept in Swift, always (`file` nil: its loudness is
    /// measured when first asked for) or until its first upload (a file sound that could not go
    /// straight into OpenAL's buffer: measured now, while the samples are here).
    convenience init(name: String, format: AudioFormat, samples: SoundSamples, file: SoundFile?, loopRegion: Range<Int>?, id: Int, engineID: Int) {
        var levels = SoundLevels(sampleRate: format.sampleRate)
        switch samples {
        case .int16(let values): values.withUnsafeBufferPointer { levels.add($0, channelCount: max(1, format.channelCount)) }
        case .float32(let values): values.withUnsafeBufferPointer { levels.add($0, channelCount: max(1, format.channelCount)) }
        }
        levels.finish()
        self.init(name: name, format: format, frameCount: samples.count / max(1, format.channelCount), isFloat: samples.isFloat,
                  kept: samples, file: file, levels: levels,
                  integratedLoudnessLUFS: file == nil ? nil : Self.integratedLoudness(of: samples, format: format),
                  loopRegion: loopRegion, id: id, engineID: engineID)
    }

    /// A sound of `frameCount` frames, its samples kept in Swift (`kept`) or only in OpenAL.
    /// `integratedLoudnessLUFS` nil: measured from the kept samples when first asked for.
    init(name: String, format: AudioFormat, frameCount: Int, isFloat: Bool, kept: SoundSamples?, file: SoundFile?,
         levels: SoundLevels, integratedLoudnessLUFS: Double?, loopRegion: Range<Int>?, id: Int, engineID: Int) {
        self.name = name
        self.format = format
        self.frameCount = frameCount
        self.isFloat = isFloat
        self.kept = KeptSamples(kept)
        self.file = file
        self.levels = levels
        self.loudness = AnnotatedMutex(integratedLoudnessLUFS)
        // A damaged file can decode to fewer frames than its header promised its tags against.
        self.loopRegion = loopRegion.flatMap { $0.upperBound <= frameCount ? $0 : nil }
        self.id = id
        self.engineID = engineID
    }

    /// The integrated loudness of `samples` (-infinity if libebur128 cannot take the format).
    private static func integratedLoudness(of samples: SoundSamples, format: AudioFormat) -> Double {
        guard let meter = try? LoudnessMeter(format: format, truePeak: false) else { return -.infinity }
        switch samples {
        case .int16(let values): values.withUnsafeBufferPointer { meter.add($0) }
        case .float32(let values): values.withUnsafeBufferPointer { meter.add($0) }
        }
        return meter.finish().integratedLUFS
    }

    /// Bytes of its interleaved samples.
    var byteCount: Int { frameCount * format.channelCount * (isFloat ? MemoryLayout<Float>.size : MemoryLayout<Int16>.size) }

    /// The loudest absolute sample in `frames` (to within a millisecond on each side), as float
    /// (v / 32768 for a 16-bit sound). For meters.
    package func peakLevel(inFrames frames: Range<Int>) -> Float { levels.peak(inFrames: frames) }

    /// The sound's name, channels, rate and length, for logs.
    public var description: String {
        "Sound(\(name), \(format.channelCount) ch, \(format.sampleRate) Hz, \(frameCount) frames)"
    }
}
