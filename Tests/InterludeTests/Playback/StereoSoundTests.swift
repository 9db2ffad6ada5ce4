import Testing
@testable import Interlude

extension EngineSuites {
    /// A stereo sound plays as is when unpositioned, and downmixed to mono at a position.
    @Suite struct StereoSoundTests {
        @Test func unpositionedStereoPassesStraightThrough() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let (sound, left) = try TestEngine.leftOnlySine(engine)
            var parameters = VoiceParameters()
            parameters.isLooping = true
            try engine.play(sound, parameters: parameters)
            let samples = try engine.render(frameCount: 9_600)
            #expect(SignalMeasure.rms(samples, channel: 1, channelCount: 2) == 0, "right channel must be exactly 0")
            var maxError: Float = 0
            for frame in 64..<9_600 { maxError = max(maxError, abs(samples[2 * frame] - left[frame % left.count])) }
            #expect(maxError < 1e-6, "left channel differs from the input by up to \(maxError)")
            #expect(SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: 64..<9_600) > 0.3)
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test(arguments: [Float(4), Float(-4)])
        func positionalStereoIsDownmixedAndPanned(x: Float) throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let (sound, _) = try TestEngine.leftOnlySine(engine)
            var parameters = VoiceParameters(position: Vector3(x, 0, 0))
            parameters.isLooping = true
            try engine.play(sound, parameters: parameters)
            let samples = try engine.render(frameCount: 14_400)
            let left = SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: 4_800..<14_400)
            let right = SignalMeasure.rms(samples, channel: 1, channelCount: 2, frames: 4_800..<14_400)
            let (near, far) = x > 0 ? (right, left) : (left, right)
            // The downmix of a left-only sound is half of it, at 1/4 gain for distance 4.
            #expect(near > 0.01, "left \(left), right \(right)")
            #expect(near >= 4 * far, "near/far = \(near / max(far, 1e-12)) (left \(left), right \(right))")
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test func positionalStereoMatchesItsMonoDownmix() throws {
            func render(stereo: Bool) throws -> [Float] {
                let engine = try TestEngine.offline()
                defer { engine.shutdown() }
                let mono = TestEngine.sineSamples(frequency: 500, frameCount: 4_800)
                let sound: Sound
                if stereo {
                    var samples = [Float](repeating: 0, count: 2 * mono.count)
                    for frame in mono.indices { samples[2 * frame] = mono[frame] }
                    sound = try engine.makeSound(name: "stereo", format: AudioFormat(sampleRate: 48_000, channelCount: 2), samples: samples)
                } else {
                    sound = try engine.makeSound(name: "mono", format: AudioFormat(sampleRate: 48_000, channelCount: 1), samples: mono.map { $0 * 0.5 })
                }
                var parameters = VoiceParameters(position: Vector3(2, 0, -1))
                parameters.isLooping = true
                try engine.play(sound, parameters: parameters)
                return try engine.render(frameCount: 9_600)
            }
            let stereo = try render(stereo: true)
            let mono = try render(stereo: false)
            #expect(stereo == mono)
        }
    }
}
