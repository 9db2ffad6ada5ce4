#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How loud a sound is, as ITU-R BS.1770-4 / EBU R128 measure it (with libebur128): what a
/// loudness target (``SoundEngine/playMusic(path:channel:isLooping:gain:fadeSeconds:loopRegion:loudnessLUFS:)``)
/// is matched against, and what `interlude info` prints.
///
/// The integrated loudness is measured over the whole sound as decoded, gated: blocks of 400 ms
/// quieter than -70 LUFS, and then those more than 10 LU below the rest, do not count. A sound
/// shorter than one block is measured over its own length (its K-weighted mean power).
public struct Loudness: Sendable, Equatable {
    /// Integrated loudness in LUFS; -infinity when nothing passes the -70 LUFS gate (silence).
    public var integratedLUFS: Double
    /// The highest true peak of any channel (4x oversampled), in dBTP; nil when it was not
    /// measured.
    public var truePeakDecibels: Double?

    /// The quietest loudness a target may name, and below which a sound counts as silence and
    /// gets no gain from a target: BS.1770's absolute gate.
    public static let quietestLUFS = -70.0
    /// The loudest target: full scale.
    public static let loudestLUFS = 0.0

    /// A loudness as measured.
    public init(integratedLUFS: Double, truePeakDecibels: Double? = nil) {
        self.integratedLUFS = integratedLUFS
        self.truePeakDecibels = truePeakDecibels
    }

    /// Whether it is too quiet for a loudness target to apply (below ``quietestLUFS``).
    public var isSilent: Bool { !(integratedLUFS >= Self.quietestLUFS) }

    /// The gain in decibels that brings the sound to `targetLUFS`: the difference, or 0 for a
    /// silent sound.
    public func gainDecibels(toTarget targetLUFS: Double) -> Double {
        isSilent ? 0 : targetLUFS - integratedLUFS
    }

    /// The linear gain that brings the sound to `targetLUFS`: `10^((target - measured) / 20)`,
    /// 1 for a silent sound.
    public func gain(toTarget targetLUFS: Double) -> Float {
        Float(pow(10, gainDecibels(toTarget: targetLUFS) / 20))
    }

    /// Measures a sound file (WAV, Ogg Vorbis, Ogg Opus, FLAC or MP3), decoding it whole on the
    /// calling thread, a chunk at a time. `truePeak` also measures the true peak, which takes
    /// several times longer. Throws `.fileNotFound`, `.unreadableFile` or `.unsupportedFormat`
    /// naming the file, and `.corruptData` for damage found while decoding.
    public static func measure(path: String, truePeak: Bool = false) throws -> Loudness {
        try measure(decoder: DecoderFactory.open(path: path), truePeak: truePeak)
    }

    /// Measures interleaved float samples of `format` (a render's output, say).
    public static func measure(samples: [Float], format: AudioFormat, truePeak: Bool = false) throws -> Loudness {
        let meter = try LoudnessMeter(format: format, truePeak: truePeak)
        samples.withUnsafeBufferPointer { meter.add($0) }
        return meter.finish()
    }

    /// Measures what `decoder` reads from where it stands to its end, on the calling thread.
    static func measure(decoder: any AudioDecoder, truePeak: Bool = false) throws -> Loudness {
        let meter = try LoudnessMeter(format: decoder.format, truePeak: truePeak)
        let channelCount = decoder.format.channelCount
        var chunk = [Float](repeating: 0, count: SoundFileReader.chunkFrames * channelCount)
        while true {
            let frames = try chunk.withUnsafeMutableBufferPointer { min(try decoder.read(into: $0), SoundFileReader.chunkFrames) }
            if frames <= 0 { break }
            chunk.withUnsafeBufferPointer { meter.add(UnsafeBufferPointer(rebasing: $0[0..<frames * channelCount])) }
        }
        return meter.finish()
    }

    /// Measures the sum of several tracks of one rate and length at gain 1 (a track's stems),
    /// as they play together, on the calling thread. A mono track among stereo ones counts in
    /// both channels at -3 dB, as OpenAL pans a centred mono source.
    static func measure(sumOf decoders: [any AudioDecoder]) throws -> Loudness {
        let channelCount = decoders.map(\.format.channelCount).max() ?? 1
        let format = AudioFormat(sampleRate: decoders[0].format.sampleRate, channelCount: channelCount)
        let meter = try LoudnessMeter(format: format, truePeak: false)
        let frames = SoundFileReader.chunkFrames
        var sum = [Float](repeating: 0, count: frames * channelCount)
        var chunk = [Float](repeating: 0, count: frames * channelCount)
        while true {
            var longest = 0
            sum.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            for decoder in decoders {
                let stemChannels = decoder.format.channelCount
                let read = try chunk.withUnsafeMutableBufferPointer {
                    min(try decoder.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<frames * stemChannels])), frames)
                }
                longest = max(longest, read)
                if stemChannels == channelCount {
                    for index in 0..<(read * channelCount) { sum[index] += chunk[index] }
                } else {
                    let centred = Float(0.5).squareRoot()
                    for frame in 0..<read {
                        for channel in 0..<channelCount { sum[frame * channelCount + channel] += centred * chunk[frame] }
                    }
                }
            }
            if longest <= 0 { break }
            sum.withUnsafeBufferPointer { meter.add(UnsafeBufferPointer(rebasing: $0[0..<longest * channelCount])) }
        }
        return meter.finish()
    }
}
