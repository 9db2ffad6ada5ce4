import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// `alGenSources` and `alGenBuffers` fail with AL_OUT_OF_MEMORY (`ALFaults`): nothing
    /// crashes, each failure is counted in `statistics.internalErrorCount`, a voice without a
    /// source goes on as a virtual voice (its position kept by the engine's clock), and once the
    /// names can be made again everything sounds.
    @Suite struct ALNameFaultTests {
        static let rate = TestEngine.sampleRate

        @Test("alGenSources failing: play returns a live handle, the voice is virtual and silent, then gets a source and sounds on its frame")
        func sourceFailureMakesTheVoiceVirtual() throws {
            defer { ALFaults.disarmAll() }
            let engine = try TestEngine.offline()
            let tone = try TestEngine.sine(engine, frequency: 440, frameCount: 3 * Self.rate)
            ALFaults.arm(.genSources, count: .max)
            let voice = try engine.play(tone, parameters: VoiceParameters(position: nil, isLooping: true))
            let starved = try engine.render(frameCount: Self.rate / 2)
            #expect(starved.allSatisfy { $0 == 0 })
            #expect(engine.isPlaying(voice))
            #expect(engine.statistics.realVoiceCount == 0)
            #expect(engine.statistics.internalErrorCount >= 1)
            let virtualPosition = try #require(engine.positionInFrames(of: voice))
            #expect(abs(virtualPosition - Self.rate / 2) <= Self.rate / 50, "virtual voice at frame \(virtualPosition)")

            ALFaults.disarmAll()
            let errorsBefore = engine.statistics.internalErrorCount
            let back = try engine.render(frameCount: Self.rate / 2)
            let steady = (Self.rate / 4)..<(Self.rate / 2)
            #expect(SignalMeasure.rms(back, channel: 0, channelCount: 2, frames: steady) > 0.1)
            #expect(abs(SignalMeasure.zeroCrossingFrequency(back, channel: 0, channelCount: 2, sampleRate: Self.rate, frames: steady) - 440) < 2)
            #expect(engine.statistics.realVoiceCount == 1)
            let position = try #require(engine.positionInFrames(of: voice))
            #expect(abs(position - Self.rate) <= Self.rate / 50, "voice at frame \(position) after 1 s")
            #expect(engine.statistics.internalErrorCount == errorsBefore)
        }

        @Test("alGenBuffers failing: a load still returns the sound, and its first play uploads it and sounds")
        func bufferFailureAtLoadIsRetriedAtPlay() throws {
            defer { ALFaults.disarmAll() }
            let engine = try TestEngine.offline()
            let buffersBefore = engine.statistics.alBufferCount
            ALFaults.arm(.genBuffers, count: 1)
            let tone = try engine.loadSound(path: SessionAssets.tone440)
            #expect(engine.statistics.alBufferCount == buffersBefore)
            #expect(engine.statistics.internalErrorCount == 1)
            try engine.play(tone, parameters: VoiceParameters(position: nil, isLooping: true))
            let rendered = try engine.render(frameCount: Self.rate / 2)
            let steady = (Self.rate / 10)..<(Self.rate / 2)
            #expect(SignalMeasure.rms(rendered, channel: 0, channelCount: 2, frames: steady) > 0.1)
            #expect(engine.statistics.alBufferCount == buffersBefore + 1)
            #expect(engine.statistics.internalErrorCount == 1)
        }

        @Test("alGenBuffers failing at a sound's upload and at its play: the voice stays silent while it fails, then sounds")
        func bufferFailureAtPlayRecovers() throws {
            defer { ALFaults.disarmAll() }
            let engine = try TestEngine.offline()
            ALFaults.arm(.genBuffers, count: .max)
            let fresh = try TestEngine.sine(engine, frequency: 440, frameCount: 3 * Self.rate)
            let voice = try engine.play(fresh, parameters: VoiceParameters(position: nil, isLooping: true))
            let starved = try engine.render(frameCount: Self.rate / 4)
            #expect(starved.allSatisfy { $0 == 0 })
            #expect(engine.isPlaying(voice))
            ALFaults.disarmAll()
            let back = try engine.render(frameCount: Self.rate / 2)
            #expect(SignalMeasure.rms(back, channel: 0, channelCount: 2, frames: (Self.rate / 4)..<(Self.rate / 2)) > 0.1)
        }
    }
}
