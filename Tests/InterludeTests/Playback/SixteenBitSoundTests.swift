import Foundation
import Testing
@_spi(Tools) @testable import Interlude

extension EngineSuites {
    /// A 16-bit source loaded as 16-bit plays exactly as its float samples did: OpenAL Soft
    /// reads a 16-bit sample as v / 32768, which is the float the decoder gives.
    @Suite struct SixteenBitSoundTests {
        enum Source: String, CaseIterable, CustomTestStringConvertible {
            case stereoWAV, monoWAVAt44100, stereoFLAC, monoFLACAt44100
            var testDescription: String { rawValue }
        }

        @Test(arguments: Source.allCases)
        func aLoadedSixteenBitSoundRendersLikeItsFloatSamples(source: Source) throws {
            let fixture = try CodecFixture()
            let path: String
            switch source {
            case .stereoWAV: path = try fixture.writeWAV("sweep.wav", CodecFixture.stereoSweep(), channelCount: 2)
            case .monoWAVAt44100: path = try fixture.writeWAV("tone.wav", CodecFixture.monoTone(), channelCount: 1, sampleRate: 44_100)
            case .stereoFLAC: path = try fixture.encode(.flac, CodecFixture.stereoSweep(), channelCount: 2, name: "sweep")
            case .monoFLACAt44100: path = try fixture.encode(.flac, CodecFixture.monoTone(), channelCount: 1, sampleRate: 44_100, name: "tone")
            }
            let decoded = try DecoderFactory.decodeAll(path: path)
            let loaded = try Self.render { engine in
                let sound = try engine.loadSound(path: path)
                guard !sound.isFloat else { throw TestFailure("\(path) was not kept as 16-bit") }
                return sound
            }
            let fromFloat = try Self.render { engine in
                try engine.makeSound(name: "float", format: decoded.format, samples: decoded.samples)
            }
            #expect(SignalMeasure.rms(loaded, channel: 0, channelCount: 2) > 0.05)
            #expect(SignalMeasure.rms(loaded, channel: 1, channelCount: 2) > 0.05)
            let differing = zip(loaded, fromFloat).filter { $0 != $1 }.count
            #expect(loaded.count == fromFloat.count && differing == 0, "\(differing) of \(loaded.count) samples differ")
        }

        /// Plays the sound `make` gives three ways at once (unpositioned, placed left and right,
        /// one at a changed pitch) on a fresh offline engine, and renders 0.2 s.
        private static func render(_ make: (SoundEngine) throws -> Sound) throws -> [Float] {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sound = try make(engine)
            try engine.play(sound, parameters: VoiceParameters(position: nil, gain: 0.3, isLooping: true))
            try engine.play(sound, parameters: VoiceParameters(position: Vector3(-2, 0, 0), gain: 0.6, isLooping: true))
            try engine.play(sound, parameters: VoiceParameters(position: Vector3(3, 0, -1), gain: 0.6, pitch: 1.25, isLooping: true))
            let samples = try engine.render(frameCount: 9_600)
            #expect(engine.statistics.internalErrorCount == 0)
            return samples
        }
    }
}

/// Only sources of 16 bits or fewer are kept as 16-bit; the rest stay float.
@Suite struct SoundSampleFormatTests {
    @Test func sixteenBitOrFewerStaysSixteenBitAndTheRestStaysFloat() throws {
        let fixture = try WAVFixture()
        let int16WAV = try fixture.write("pcm16.wav", WAVFixture.pcm16File([0, 1, -32768, 32767], channelCount: 2, sampleRate: 48_000))
        let int8WAV = try fixture.write("pcm8.wav", WAVFixture.riff([
            WAVFixture.fmt(formatTag: 1, channelCount: 1, bitsPerSample: 8), WAVFixture.data(WAVFixture.unsigned8([0, 128, 255, 1])),
        ]))
        let int24WAV = try fixture.write("pcm24.wav", WAVFixture.riff([
            WAVFixture.fmt(formatTag: 1, channelCount: 1, bitsPerSample: 24), WAVFixture.data(WAVFixture.signed24([1, -1, 8_388_607, 0])),
        ]))
        let floatWAV = try fixture.write("float.wav", WAVFixture.riff([
            WAVFixture.fmt(formatTag: 3, channelCount: 1, bitsPerSample: 32), WAVFixture.data(WAVFixture.float32([0.1, -0.25, 1, 0])),
        ]))
        #expect(try Self.int16Samples(int16WAV) == [0, 1, -32768, 32767])
        #expect(try Self.int16Samples(int8WAV) == [-32768, 0, 32512, -32512])
        #expect(try Self.int16Samples(int24WAV) == nil)
        #expect(try Self.int16Samples(floatWAV) == nil)
        let codecs = try CodecFixture()
        let flac = try codecs.encode(.flac, CodecFixture.loopSine(), channelCount: 2, name: "sine")
        #expect(try Self.int16Samples(flac) == CodecFixture.loopSine())
        let opus = try codecs.encode(.opus, CodecFixture.loopSine(), channelCount: 2, name: "sine")
        #expect(try Self.int16Samples(opus) == nil)
    }

    /// The samples a loaded sound of `path` keeps, when they are 16-bit; nil when float.
    private static func int16Samples(_ path: String) throws -> [Int16]? {
        guard case .int16(let samples) = try DecoderFactory.decodeSound(path: path).samples else { return nil }
        return samples
    }
}
