import Testing
@testable import Interlude

extension EngineSuites {
    @Suite struct PitchTests {
        static func measuredFrequency(pitch: Float, sourceRate: Int = TestEngine.sampleRate) throws -> Double {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sine = try TestEngine.sine(engine, frequency: 440, frameCount: sourceRate, sampleRate: sourceRate)
            var parameters = VoiceParameters()
            parameters.isLooping = true
            parameters.pitch = pitch
            try engine.play(sine, parameters: parameters)
            let samples = try engine.render(frameCount: 48_000)
            return SignalMeasure.zeroCrossingFrequency(samples, channel: 0, channelCount: 2, sampleRate: 48_000, frames: 4_800..<48_000)
        }

        @Test func pitchOneKeepsTheFrequency() throws {
            let frequency = try Self.measuredFrequency(pitch: 1)
            #expect(abs(frequency - 440) < 4.4, "measured \(frequency) Hz")
        }

        @Test func pitchTwoDoublesTheFrequency() throws {
            let frequency = try Self.measuredFrequency(pitch: 2)
            #expect(abs(frequency - 880) < 8.8, "measured \(frequency) Hz")
        }

        @Test func pitchHalfHalvesTheFrequency() throws {
            let frequency = try Self.measuredFrequency(pitch: 0.5)
            #expect(abs(frequency - 220) < 2.2, "measured \(frequency) Hz")
        }

        @Test func aSoundAtAnotherRatePlaysAtItsOwnFrequency() throws {
            let frequency = try Self.measuredFrequency(pitch: 1, sourceRate: 22_050)
            #expect(abs(frequency - 440) < 4.4, "measured \(frequency) Hz")
        }
    }
}
