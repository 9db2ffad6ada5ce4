import Foundation
import Testing
@_spi(Tools) @testable import Interlude
@testable import InterludeScene
import SoakScenario

/// What every compressed-format decoder (FLAC, MP3, Ogg Opus) must do, each checked against the
/// format's own command-line decoder on files made by the real encoder.
@Suite struct CodecDecoderTests {
    static let rate = CodecFixture.sampleRate

    @Test(arguments: Codec.allCases)
    func stereoMatchesTheReferenceDecoderWithinOneLSB(codec: Codec) throws {
        let fixture = try CodecFixture()
        let encoded = try fixture.encode(codec, CodecFixture.stereoSweep(), channelCount: 2, name: "sweep")
        let reference = try fixture.reference(codec, encoded)
        let decoder = try codec.open(encoded)
        #expect(decoder.format == AudioFormat(sampleRate: Self.rate, channelCount: 2))
        #expect(decoder.format == reference.format)
        #expect(decoder.frameCount * 2 == reference.samples.count)
        let decoded = try readAllInt16(decoder, framesPerRead: 1000)
        let worst = largestDifference(decoded, reference.samples)
        print("\(codec): stereo sweep, \(decoder.frameCount) frames, largest difference from the reference \(worst) LSB")
        #expect(worst <= 1)
        // The sweep really is in there: the loud left channel peaks near its 16 000 amplitude.
        let leftPeak = stride(from: 0, to: decoded.count, by: 2).map { abs(Int(decoded[$0])) }.max() ?? 0
        #expect((14_000...18_500).contains(leftPeak))
    }

    @Test(arguments: Codec.allCases)
    func monoMatchesTheReferenceDecoderWithinOneLSB(codec: Codec) throws {
        let fixture = try CodecFixture()
        let encoded = try fixture.encode(codec, CodecFixture.monoTone(), channelCount: 1, sampleRate: 44_100, name: "tone")
        let reference = try fixture.reference(codec, encoded)
        let decoder = try codec.open(encoded)
        // Opus always decodes at 48 kHz; the others keep the source rate.
        #expect(decoder.format == AudioFormat(sampleRate: codec == .opus ? 48_000 : 44_100, channelCount: 1))
        #expect(decoder.format == reference.format)
        #expect(decoder.frameCount == reference.samples.count)
        let worst = largestDifference(try readAllInt16(decoder), reference.samples)
        print("\(codec): mono tone, \(decoder.frameCount) frames, largest difference from the reference \(worst) LSB")
        #expect(worst <= 1)
    }

    @Test(arguments: Codec.allCases)
    func seekingToAnyFrameMatchesTheReferenceFromThere(codec: Codec) throws {
        let fixture = try CodecFixture()
        let encoded = try fixture.encode(codec, CodecFixture.stereoSweep(), channelCount: 2, name: "sweep")
        let reference = try fixture.reference(codec, encoded).samples
        let decoder = try codec.open(encoded)
        var generator = SplitMix64(seed: 0x5EEC)
        let randomFrames = (0..<6).map { _ in Int(generator.next() % UInt64(decoder.frameCount)) }
        var worst = 0
        for frame in [0, 1, 1151, 48_001] + randomFrames + [decoder.frameCount - 100, decoder.frameCount] {
            try decoder.seek(toFrame: frame)
            var buffer = [Float](repeating: .nan, count: 4096 * 2)
            let frames = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
            #expect(frames == min(4096, decoder.frameCount - frame), "seek to \(frame)")
            let decoded = buffer[0..<frames * 2].map(PCMConversion.int16(fromFloat:))
            let difference = largestDifference(decoded, reference[(frame * 2)..<(frame + frames) * 2])
            #expect(difference <= 1, "seek to \(frame): \(difference) LSB from the reference")
            worst = max(worst, difference)
        }
        print("\(codec): after 12 seeks, largest difference from the reference \(worst) LSB")
        for frame in [-1, decoder.frameCount + 1] {
            expectError(.invalidArgument, naming: encoded) { try decoder.seek(toFrame: frame) }
        }
        var halfFrame = [Float](repeating: 0, count: 1)
        expectError(.invalidArgument, naming: encoded) {
            _ = try halfFrame.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
        }
    }

    /// A one-second sine that loops seamlessly as PCM, encoded gaplessly (LAME's header for MP3,
    /// the pre-skip and end trim for Opus): reading to the end, seeking to 0 and reading on.
    ///
    /// Two measures. Alignment: the decoded start and end match the source best at lag 0, so the
    /// gapless trim is sample-exact (one frame off would be a -32 dBFS error everywhere). Click:
    /// how far the seam's second difference (a high-pass in which a step or gap stands out) rises
    /// above the largest one of the steady tone. For FLAC that is nothing (-180 dBFS, the floor).
    /// The lossy codecs leave a residual that no decoder can remove: the encoder coded the file's
    /// first frame from silence, not from the loop's end, so the first few milliseconds carry the
    /// codec's onset error (measured: MP3 CBR 192 -43.7, VBR V2 -44.0, Opus 128 kbit/s -48.9 dBFS).
    /// They are held to -40 dBFS, FLAC to -60. Looping a region inside margins removes it
    /// (`LossyLoopSeamTests`).
    @Test(arguments: Codec.allCases)
    func loopSeamIsSampleAlignedWithoutAClick(codec: Codec) throws {
        let fixture = try CodecFixture()
        let source = CodecFixture.loopSine().map { Float($0) / 32768 }
        let decoder = try codec.open(try fixture.encode(codec, CodecFixture.loopSine(), channelCount: 2, name: "loop"))
        #expect(decoder.frameCount * 2 == source.count)
        let whole = try readAll(decoder)
        try decoder.seek(toFrame: 0)
        let again = try readAll(decoder)
        #expect(again == whole)
        #expect(whole.count == source.count)
        guard whole.count == source.count else { return }
        let window = 512
        for (name, range) in [("start", 0..<window), ("end", (decoder.frameCount - window)..<decoder.frameCount)] {
            let errors = (-2...2).map { lag in Self.peakError(whole, source, frames: range, lag: lag) }
            #expect(errors.min() == errors[2], "\(codec) \(name): error by lag -2...2: \(errors)")
        }
        let seam = Array(whole.suffix(window * 2) + again.prefix(window * 2))
        let steady = Array(whole[(decoder.frameCount / 2 - window) * 2..<(decoder.frameCount / 2 + window) * 2])
        var clickLevel: Float = 0
        for channel in 0..<2 {
            let excess = Self.peakSecondDifference(seam, channel: channel) - Self.peakSecondDifference(steady, channel: channel)
            clickLevel = max(clickLevel, excess)
        }
        let clickDecibels = 20 * log10(max(clickLevel, 1e-9))
        print("\(codec): loop of \(decoder.frameCount) frames, seam click \(clickDecibels) dBFS")
        #expect(clickDecibels < (codec == .flac ? -60 : -40))
    }

    /// The largest |decoded[n + lag] - source[n]| over `frames` of interleaved stereo (frames outside the decode count as 0).
    static func peakError(_ decoded: [Float], _ source: [Float], frames: Range<Int>, lag: Int) -> Float {
        var peak: Float = 0
        for frame in frames {
            let shifted = frame + lag
            for channel in 0..<2 {
                let value = (0..<decoded.count / 2).contains(shifted) ? decoded[shifted * 2 + channel] : 0
                peak = max(peak, abs(value - source[frame * 2 + channel]))
            }
        }
        return peak
    }

    /// The largest |x[n] - 2 x[n-1] + x[n-2]| of one channel of interleaved stereo.
    static func peakSecondDifference(_ samples: [Float], channel: Int) -> Float {
        let frames = samples.count / 2
        var peak: Float = 0
        for frame in 2..<frames {
            let value = samples[frame * 2 + channel] - 2 * samples[(frame - 1) * 2 + channel] + samples[(frame - 2) * 2 + channel]
            peak = max(peak, abs(value))
        }
        return peak
    }

    @Test(arguments: Codec.allCases)
    func corruptAndTruncatedFilesGiveATypedErrorOrAShorterDecode(codec: Codec) throws {
        let fixture = try CodecFixture()
        let encoded = try fixture.encode(codec, CodecFixture.stereoSweep(), channelCount: 2, name: "sweep")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: encoded)))
        let fullLength = CodecFixture.stereoSweep().count
        var variants: [(String, [UInt8])] = [0, 4, 20, 100, 1000].map { ("head-\($0)", Array(bytes.prefix($0))) }
        variants += [0.3, 0.6, 0.99].map { ("cut-\($0)", Array(bytes.prefix(Int(Double(bytes.count) * $0)))) }
        for (offset, length) in [(0.5, 64), (0.1, 400), (0.02, 16)] {
            var damaged = bytes
            let start = Int(Double(bytes.count) * offset)
            for index in start..<min(bytes.count, start + length) { damaged[index] ^= 0x5A }
            variants.append(("xor-\(offset)-\(length)", damaged))
        }
        for (name, variant) in variants {
            let path = try fixture.write(name, variant, codec: codec)
            do {
                let decoded = try DecoderFactory.decodeAll(path: path)
                print("\(codec) \(name): decodes to \(decoded.samples.count / 2) of \(fullLength / 2) frames")
                #expect(decoded.samples.count <= fullLength + 2 * 4096, "\(name): \(decoded.samples.count) samples")
                let allFinite = decoded.samples.allSatisfy { $0.isFinite }
                #expect(allFinite, "\(name)")
            } catch let error as InterludeError {
                print("\(codec) \(name): \(error.code)")
                #expect([.corruptData, .unsupportedFormat].contains(error.code), "\(name): \(error)")
                #expect(error.message.contains(path), "\(name): \(error)")
            }
            // Opening directly, skipping the factory's sniffing, must be as safe.
            do {
                _ = try readAll(codec.open(path))
            } catch let error as InterludeError {
                #expect(error.message.contains(path), "\(name): \(error)")
            }
        }
    }

    /// The flac tool refuses an empty WAV, so FLAC's case is in ``FLACDecoderTests``.
    @Test(arguments: [Codec.mp3CBR, .mp3VBR, .opus])
    func zeroLengthAudioDecodesToNothingOrATypedError(codec: Codec) throws {
        let fixture = try CodecFixture()
        let encoded = try fixture.encode(codec, [], channelCount: 2, name: "empty")
        do {
            let decoded = try DecoderFactory.decodeAll(path: encoded)
            print("\(codec): zero-length input decodes to \(decoded.samples.count / 2) frames")
            #expect(decoded.samples.count <= 2 * 4096)
        } catch let error as InterludeError {
            print("\(codec): zero-length input: \(error)")
            #expect(error.message.contains(encoded))
        }
    }

    @Test(arguments: Codec.allCases)
    func detectedByContentWhateverTheName(codec: Codec) throws {
        let fixture = try CodecFixture()
        let encoded = try fixture.encode(codec, CodecFixture.monoTone(), channelCount: 1, sampleRate: 44_100, name: "tone")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: encoded)))
        for misleadingName in ["really.ogg", "really.flac", "really.wav", "really.mp3", "no-extension"] {
            let path = try fixture.write(misleadingName, bytes)
            #expect(codec.isItsDecoder(try DecoderFactory.open(path: path)), "\(codec) named \(misleadingName)")
        }
    }

    @Test func wavNamedFlacAndVorbisNamedOpusKeepTheirDecoders() throws {
        let fixture = try CodecFixture()
        let wav = try fixture.writeWAV("really-a-wav.flac", CodecFixture.monoTone(), channelCount: 1)
        #expect(try DecoderFactory.open(path: wav) is WAVDecoder)
        let vorbis = fixture.path("really-vorbis.opus")
        try CodecFixture.run(["oggenc", "-Q", "-o", vorbis, wav])
        #expect(try DecoderFactory.open(path: vorbis) is VorbisDecoder)
    }

    @Test(arguments: Codec.allCases)
    func missingFileIsFileNotFound(codec: Codec) throws {
        let fixture = try CodecFixture()
        let path = fixture.path("gone.\(codec.fileExtension)")
        expectError(.fileNotFound, naming: path) { _ = try codec.open(path) }
    }
}

extension CodecFixture {
    /// Writes `bytes` under `name` with the codec's extension; returns the path.
    func write(_ name: String, _ bytes: [UInt8], codec: Codec) throws -> String {
        try write("\(name).\(codec.fileExtension)", bytes)
    }

    /// Writes `bytes` to `name`; returns the path.
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
