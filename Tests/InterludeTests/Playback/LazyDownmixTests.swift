import Testing
@_spi(Tools) @testable import Interlude

extension EngineSuites {
    /// A stereo sound's mono downmix exists in OpenAL only once a positional voice needed it,
    /// and a new device gets back exactly the buffers the old one had.
    @Suite struct LazyDownmixTests {
        @Test func theDownmixIsMadeByTheFirstPositionalPlayAndSurvivesADeviceRebuild() throws {
            let engine = try TestEngine.offline { $0.runsDriverThread = false }
            defer { engine.shutdown() }
            let baseline = engine.statistics.alBufferCount
            let (placed, _) = try TestEngine.leftOnlySine(engine)
            let (unplaced, _) = try TestEngine.leftOnlySine(engine, frequency: 700)
            #expect(engine.statistics.alBufferCount == baseline + 2, "loading two stereo sounds makes their own buffers only")

            var looping = VoiceParameters()
            looping.isLooping = true
            let straight = [try engine.play(placed, parameters: looping), try engine.play(unplaced, parameters: looping)]
            _ = try engine.render(frameCount: 4_800)
            #expect(engine.statistics.alBufferCount == baseline + 2, "unpositioned plays need no downmix")
            for voice in straight { try engine.stop(voice) }

            var positional = VoiceParameters(position: Vector3(4, 0, 0))
            positional.isLooping = true
            try engine.play(placed, parameters: positional)
            #expect(engine.statistics.alBufferCount == baseline + 3, "the first positional play uploads one downmix")
            let second = try engine.play(placed, parameters: positional)
            #expect(engine.statistics.alBufferCount == baseline + 3, "a second positional play shares it")
            try engine.stop(second)
            Self.expectPlacedOnTheRight(try engine.render(frameCount: 14_400))

            engine.disconnectDevice()
            try engine.reconnectDevice()
            #expect(engine.statistics.alBufferCount == baseline + 3, "the new device gets the same three buffers")
            Self.expectPlacedOnTheRight(try engine.render(frameCount: 14_400))

            try engine.unloadSound(placed)
            _ = try engine.render(frameCount: 480)
            #expect(engine.statistics.alBufferCount == baseline + 1, "unloading frees the sound's buffer and its downmix")
            #expect(engine.statistics.internalErrorCount == 0)
        }

        /// The left-only 500 Hz sine, placed 4 units to the right, is heard as its downmix: on
        /// the right, at 500 Hz, and far quieter on the left.
        private static func expectPlacedOnTheRight(_ samples: [Float]) {
            let frames = 4_800..<14_400
            let left = SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: frames)
            let right = SignalMeasure.rms(samples, channel: 1, channelCount: 2, frames: frames)
            #expect(right > 0.01, "left \(left), right \(right)")
            #expect(right >= 4 * left, "near/far = \(right / max(left, 1e-12)) (left \(left), right \(right))")
            let frequency = SignalMeasure.zeroCrossingFrequency(samples, channel: 1, channelCount: 2, sampleRate: 48_000, frames: frames)
            #expect(abs(frequency - 500) < 10, "right channel at \(frequency) Hz")
        }
    }
}
