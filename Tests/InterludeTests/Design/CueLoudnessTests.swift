import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// A cue's loudness target, heard: each variant plays with the gain that brings its own
    /// loudness to the target, above 1 too (OpenAL's AL_MAX_GAIN rises with it).
    @Suite struct CueLoudnessTests {
        static let rate = TestEngine.sampleRate

        /// The integrated loudness of one second of a cue voice (or a plain voice), rendered.
        static func renderedLoudness(target: Float?, amplitude: Float) throws -> (rendered: Double, sound: Double) {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sound = try TestEngine.sine(engine, frequency: 1_000, frameCount: rate, amplitude: amplitude)
            var definition = CueDefinition(variants: [sound])
            definition.isLooping = true
            definition.loudnessLUFS = target
            try engine.play(cue: engine.makeCue(named: "tone", definition))
            let samples = try engine.render(frameCount: 2 * rate)
            let rendered = try Loudness.measure(samples: Array(samples[rate...]), format: AudioFormat(sampleRate: rate, channelCount: 2))
            return (rendered.integratedLUFS, sound.integratedLoudnessLUFS)
        }

        @Test("a quiet variant is raised by its loudness target's gain, above 1: the output's loudness moves by the same")
        func raisedAboveUnity() throws {
            let plain = try Self.renderedLoudness(target: nil, amplitude: 0.05)
            let target = Float(plain.sound + 12)
            let raised = try Self.renderedLoudness(target: target, amplitude: 0.05)
            #expect(abs((raised.rendered - plain.rendered) - 12) < 0.5, "plain \(plain.rendered) LUFS, raised \(raised.rendered) LUFS")
        }

        @Test("a loud variant is lowered to its target, and two variants of different levels land together")
        func loweredAndMatched() throws {
            let loud = try Self.renderedLoudness(target: -30, amplitude: 0.5)
            let quiet = try Self.renderedLoudness(target: -30, amplitude: 0.05)
            #expect(abs(loud.rendered - quiet.rendered) < 0.5, "loud variant \(loud.rendered), quiet variant \(quiet.rendered) LUFS")
            #expect(abs(loud.sound - quiet.sound - 20) < 0.1)
        }

        @Test("a plain voice at gain 2 is heard twice as loud as at gain 1, and the next voice on its source is clamped at 1 again")
        func gainAboveOneOnAPlainVoice() throws {
            let engine = try TestEngine.offline { $0.realVoiceBudget = 1 }
            defer { engine.shutdown() }
            let tone = try TestEngine.sine(engine, amplitude: 0.1)
            func level(gain: Float) throws -> Double {
                let voice = try engine.play(tone, parameters: VoiceParameters(position: nil, gain: gain, isLooping: true))
                let samples = try engine.render(frameCount: Self.rate / 5)
                try engine.stop(voice)
                _ = try engine.render(frameCount: Self.rate / 10)
                return SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: (Self.rate / 10)..<(Self.rate / 5))
            }
            let unity = try level(gain: 1)
            #expect(abs(try level(gain: 2) / unity - 2) < 0.01)
            #expect(abs(try level(gain: 1) / unity - 1) < 0.01)
        }
    }
}
