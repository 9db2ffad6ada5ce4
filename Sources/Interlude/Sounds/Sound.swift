/// A decoded asset, ready to play many times at once: immutable and Sendable once loaded.
///
/// The engine keeps the PCM so that it can upload the sound again on a new device after a
/// device loss, without reading the file. A stereo sound played at a position needs a mono
/// downmix, because OpenAL only places mono sources: it is made from the PCM when the first
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

    /// Interleaved samples in ``format``: 16-bit for a 16-bit source, float otherwise.
    let samples: SoundSamples
    /// Unique within the process; keys the engine's AL buffers.
    let id: Int
    /// The engine that loaded it.
    let engineID: Int

    init(name: String, format: AudioFormat, samples: SoundSamples, loopRegion: Range<Int>?, id: Int, engineID: Int) {
        self.name = name
        self.format = format
        self.samples = samples
        let frameCount = samples.count / max(1, format.channelCount)
        self.frameCount = frameCount
        // A damaged file can decode to fewer frames than its header promised its tags against.
        self.loopRegion = loopRegion.flatMap { $0.upperBound <= frameCount ? $0 : nil }
        self.id = id
        self.engineID = engineID
    }

    /// Sample `index` (0 ..< frameCount x channels) of the interleaved samples, as float: v / 32768
    /// for a 16-bit sound, as it plays. For meters.
    package func sampleValue(at index: Int) -> Float { samples[index] }

    /// The average of both channels, for positional play of a stereo sound (call it only for
    /// one). Made on each call: the caller uploads it and lets it go.
    func monoDownmix() -> [Float] { samples.stereoDownmix() }

    /// The sound's name, channels, rate and length, for logs.
    public var description: String {
        "Sound(\(name), \(format.channelCount) ch, \(format.sampleRate) Hz, \(frameCount) frames)"
    }
}
