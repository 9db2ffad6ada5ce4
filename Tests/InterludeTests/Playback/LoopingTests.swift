import Testing
@testable import Interlude

extension EngineSuites {
    /// One-shots end after their frames and go stale; looping voices keep sounding.
    @Suite struct LoopingTests {
        /// OpenAL Soft's de-click ramps may blur the end by a few samples.
        static let rampFrames = 64

        @Test(arguments: [48_000, 24_000])
        func oneShotSoundsForItsLengthThenExactSilence(sourceRate: Int) throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let frameCount = 4_800
            let sine = try TestEngine.sine(engine, frequency: 500, frameCount: frameCount, sampleRate: sourceRate)
            let voice = try engine.play(sine)
            #expect(engine.isPlaying(voice))
            let samples = try engine.render(frameCount: 24_000)
            let outputFrames = frameCount * 48_000 / sourceRate
            let last = try #require(SignalMeasure.lastNonZeroFrame(samples, channel: 0, channelCount: 2))
            #expect(last >= outputFrames - Self.rampFrames && last < outputFrames + Self.rampFrames,
                    "last non-zero frame \(last), sound is \(outputFrames) output frames")
            let tail = SignalMeasure.rms(samples, channel: 1, channelCount: 2, frames: (outputFrames + Self.rampFrames)..<24_000)
            #expect(tail == 0)
            // Sounding throughout: every 10 ms window before the end has energy.
            for start in stride(from: 0, to: outputFrames - 480, by: 480) {
                #expect(SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: start..<(start + 480)) > 0.05, "window at \(start)")
            }
            engine.update()
            #expect(!engine.isPlaying(voice))
            #expect(engine.positionInFrames(of: voice) == nil)
            #expect(engine.parameters(of: voice) == nil)
            #expect(engine.statistics.voiceCount == 0)
        }

        @Test func loopingVoiceKeepsSounding() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sine = try TestEngine.sine(engine, frequency: 500, frameCount: 4_800)
            var parameters = VoiceParameters()
            parameters.isLooping = true
            let voice = try engine.play(sine, parameters: parameters)
            let samples = try engine.render(frameCount: 48_000)
            for start in stride(from: 0, to: 48_000, by: 2_400) {
                #expect(SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: start..<(start + 2_400)) > 0.1, "window at \(start)")
            }
            engine.update()
            #expect(engine.isPlaying(voice))
            let position = try #require(engine.positionInFrames(of: voice))
            #expect((0..<4_800).contains(position))
            #expect(engine.statistics.internalErrorCount == 0)
        }
    }
}
