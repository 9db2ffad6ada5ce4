import Foundation
import Testing
@testable import Interlude

/// A procedural source, as a game would write one: an endless sine, generated as it is read.
/// It claims `frameCount` frames; it never runs out by itself.
final class SineGeneratorDecoder: AudioDecoder {
    let path: String
    let format: AudioFormat
    let frameCount: Int
    private let frequency: Double
    private let amplitude: Float
    private var positionFrames = 0

    init(frequency: Double, frameCount: Int, sampleRate: Int = 48_000, channelCount: Int = 1, amplitude: Float = 0.5) {
        self.path = "sine\(Int(frequency))Hz"
        self.format = AudioFormat(sampleRate: sampleRate, channelCount: channelCount)
        self.frameCount = frameCount
        self.frequency = frequency
        self.amplitude = amplitude
    }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let channelCount = format.channelCount
        let frames = buffer.count / channelCount
        for frame in 0..<frames {
            let value = amplitude * Float(sin(2 * Double.pi * frequency * Double(positionFrames + frame) / Double(format.sampleRate)))
            for channel in 0..<channelCount { buffer[frame * channelCount + channel] = value }
        }
        positionFrames += frames
        return frames
    }

    func seek(toFrame frame: Int) throws { positionFrames = frame }
}

extension EngineSuites {
    /// `loadSound(decoder:)`: a game's own decoder becomes a loaded sound, read once, up to its
    /// frame count, and heard as it generates.
    @Suite struct DecoderSoundTests {
        /// Renders one play of `sound` on `engine`, with a second of margin after its end.
        static func renderOnePlay(_ engine: SoundEngine, _ sound: Sound) throws -> [Float] {
            try engine.play(sound)
            return try engine.render(frameCount: sound.frameCount + 48_000)
        }

        /// The synchronous overload (in an async context Swift picks the async one).
        static func loadSynchronously(_ engine: SoundEngine, _ decoder: sending any AudioDecoder) throws -> Sound {
            try engine.loadSound(decoder: decoder)
        }

        @Test func aProceduralSineIsHeardAtItsFrequencyForItsLength() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sound = try Self.loadSynchronously(engine, SineGeneratorDecoder(frequency: 330, frameCount: 36_000))
            #expect(sound.frameCount == 36_000)
            #expect(sound.name == "sine330Hz")
            let rendered = try Self.renderOnePlay(engine, sound)
            for channel in 0..<2 {
                let frequency = SignalMeasure.zeroCrossingFrequency(rendered, channel: channel, channelCount: 2, sampleRate: 48_000,
                                                                    frames: 1_000..<35_000)
                #expect(abs(frequency - 330) < 1, "channel \(channel): \(frequency) Hz")
                // It plays 36000 frames and then stops: silence after (from 1.20, after the mixer's
                // 64-frame fade of the last sample, which keeps an ending sound from clicking).
                let last = try #require(SignalMeasure.lastNonZeroFrame(rendered, channel: channel, channelCount: 2))
                #expect((35_900..<36_000 + OpenALStack.deClickFrames).contains(last), "channel \(channel): last sound at frame \(last), \(OpenALStack.name)")
            }
        }

        @Test func theAsyncLoadReadsOffTheCallersThreadAndPlaysTheSame() async throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sound = try await engine.loadSound(decoder: SineGeneratorDecoder(frequency: 550, frameCount: 24_000, channelCount: 2))
            #expect(sound.frameCount == 24_000)
            #expect(sound.format.channelCount == 2)
            let rendered = try Self.renderOnePlay(engine, sound)
            let frequency = SignalMeasure.zeroCrossingFrequency(rendered, channel: 0, channelCount: 2, sampleRate: 48_000,
                                                                frames: 1_000..<23_000)
            #expect(abs(frequency - 550) < 1, "\(frequency) Hz")
            let last = try #require(SignalMeasure.lastNonZeroFrame(rendered, channel: 1, channelCount: 2))
            #expect((23_900..<24_000 + OpenALStack.deClickFrames).contains(last), "last sound at frame \(last), \(OpenALStack.name)")
            // Not cached: another decoder gives another sound.
            let again = try await engine.loadSound(decoder: SineGeneratorDecoder(frequency: 550, frameCount: 24_000, channelCount: 2))
            #expect(again !== sound)
        }

        @Test func badDecodersAreRefusedByName() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let cases: [(channelCount: Int, frameCount: Int, code: InterludeError.Code, words: String)] = [
                (8, 1_000, .unsupportedFormat, "8 channels"),
                (1, 0, .invalidArgument, "frameCount 0"),
                (1, Int.max, .invalidArgument, "frameCount"),
            ]
            for (channelCount, frameCount, code, words) in cases {
                let error = try #require(throws: InterludeError.self) {
                    try engine.loadSound(decoder: SineGeneratorDecoder(frequency: 440, frameCount: frameCount, channelCount: channelCount))
                }
                #expect(error.code == code)
                #expect(error.message.contains("sine440Hz") && error.message.contains(words), "\(error.message)")
            }
            #expect(engine.statistics.loadedSoundCount == 0)
        }
    }
}
