import Testing
@testable import Interlude

extension EngineSuites {
    /// Pause keeps a voice's frame, and resume continues the waveform from it.
    @Suite struct PauseResumeTests {
        static let rampFrames = 64

        /// The constant gain from an unpositioned mono sound's samples to the left output channel,
        /// by least squares, and the largest difference from that fit.
        static func fit(output: [Float], input: [Float], inputStart: Int, frames: Range<Int>) -> (gain: Double, maxError: Double) {
            var dot = 0.0, norm = 0.0
            for frame in frames {
                let x = Double(input[(inputStart + frame) % input.count])
                dot += Double(output[2 * frame]) * x
                norm += x * x
            }
            let gain = dot / norm
            var maxError = 0.0
            for frame in frames {
                let x = Double(input[(inputStart + frame) % input.count])
                maxError = max(maxError, abs(Double(output[2 * frame]) - gain * x))
            }
            return (gain, maxError)
        }

        @Test func pauseKeepsTheOffsetAndResumeContinuesTheWaveform() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let input = TestEngine.sineSamples(frequency: 440, frameCount: 48_000)
            let sound = try engine.makeSound(name: "sine", format: AudioFormat(sampleRate: 48_000, channelCount: 1), samples: input)
            var parameters = VoiceParameters()
            parameters.isLooping = true
            let voice = try engine.play(sound, parameters: parameters)

            // Reference: the output is the input times a constant channel gain.
            let reference = try engine.render(frameCount: 10_000)
            let (gain, referenceError) = Self.fit(output: reference, input: input, inputStart: 0, frames: Self.rampFrames..<10_000)
            #expect(gain > 0.1, "channel gain \(gain)")
            #expect(referenceError < 1e-4, "reference render differs from input x \(gain) by up to \(referenceError)")
            // Both channels carry the same centred signal.
            for frame in 0..<10_000 { if reference[2 * frame] != reference[2 * frame + 1] { Issue.record("L != R at \(frame)"); break } }

            try engine.pause(voice)
            let pausedAt = try #require(engine.positionInFrames(of: voice))
            #expect(pausedAt == 10_000, "paused at \(pausedAt)")
            #expect(!engine.isPlaying(voice))

            let silence = try engine.render(frameCount: 4_800)
            #expect(SignalMeasure.rms(silence, channel: 0, channelCount: 2, frames: Self.rampFrames..<4_800) == 0)
            #expect(SignalMeasure.rms(silence, channel: 1, channelCount: 2, frames: Self.rampFrames..<4_800) == 0)
            #expect(engine.positionInFrames(of: voice) == pausedAt)

            try engine.resume(voice)
            #expect(engine.isPlaying(voice))
            #expect(engine.positionInFrames(of: voice) == pausedAt)
            let resumed = try engine.render(frameCount: 4_800)
            let (resumedGain, resumedError) = Self.fit(output: resumed, input: input, inputStart: pausedAt, frames: Self.rampFrames..<4_800)
            #expect(abs(resumedGain - gain) < 1e-4 * gain, "gain after resume \(resumedGain), before \(gain)")
            #expect(resumedError < 1e-4, "after resume the output differs from input[\(pausedAt)...] x \(gain) by up to \(resumedError)")
            #expect(engine.positionInFrames(of: voice) == pausedAt + 4_800)
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test func pauseAndResumeTwiceAreHarmless() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sine = try TestEngine.sine(engine)
            var parameters = VoiceParameters()
            parameters.isLooping = true
            let voice = try engine.play(sine, parameters: parameters)
            _ = try engine.render(frameCount: 1_000)
            try engine.pause(voice)
            try engine.pause(voice)
            #expect(engine.positionInFrames(of: voice) == 1_000)
            try engine.resume(voice)
            try engine.resume(voice)
            let samples = try engine.render(frameCount: 4_800)
            #expect(SignalMeasure.rms(samples, channel: 0, channelCount: 2) > 0.1)
            #expect(engine.positionInFrames(of: voice) == 5_800)
            #expect(engine.statistics.internalErrorCount == 0)
        }
    }
}
