import Testing
@_spi(Tools) @testable import Interlude

extension EngineSuites {
    /// The loopback render is deterministic: the same calls give the same samples.
    @Suite struct DeterminismTests {
        static func renderSequence() throws -> [Float] {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sine = try TestEngine.sine(engine, frequency: 330)
            let beep = try engine.loadSound(path: TestPaths.asset("sfx/beep.wav"))
            var output: [Float] = []
            try engine.playMusic(path: TestPaths.asset("music/theme.ogg"), gain: 0.5, fadeSeconds: 0.2)
            var looping = VoiceParameters(position: Vector3(3, 0, -1), pitch: 1.3, isLooping: true)
            looping.group = .sfx
            let voice = try engine.play(sine, parameters: looping)
            output += try engine.render(frameCount: 7_000)
            try engine.play(beep, parameters: VoiceParameters(position: Vector3(-2, 0, 0)))
            try engine.setPosition(Vector3(-3, 1, 2), of: voice)
            output += try engine.render(frameCount: 5_123)
            try engine.setGain(0.3, of: .sfx, fadeSeconds: 0.1)
            try engine.beginInterruption(reason: .call)
            output += try engine.render(frameCount: 4_800)
            try engine.endInterruption(shouldResume: true)
            output += try engine.render(frameCount: 9_000)
            engine.disconnectDevice()
            output += try engine.render(frameCount: 1_000)
            try engine.reconnectDevice()
            output += try engine.render(frameCount: 9_600)
            #expect(engine.statistics.internalErrorCount == 0)
            return output
        }

        @Test func sameCallsGiveIdenticalSamples() throws {
            let first = try Self.renderSequence()
            let second = try Self.renderSequence()
            #expect(first.count == second.count)
            let firstDifference = zip(first, second).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }
            #expect(firstDifference == nil, "first difference at sample \(firstDifference?.offset ?? -1)")
            #expect(SignalMeasure.rms(first, channel: 0, channelCount: 2) > 0.01)
        }
    }
}
