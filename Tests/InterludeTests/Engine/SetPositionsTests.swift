import Interlude
import Testing

extension EngineSuites {
    @Suite struct SetPositionsTests {
        @Test func movesEveryVoiceAndSkipsStaleHandles() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sound = try TestEngine.sine(engine)
            let first = try engine.play(sound, parameters: VoiceParameters(position: Vector3(1, 0, 0), isLooping: true))
            let second = try engine.play(sound, parameters: VoiceParameters(position: Vector3(2, 0, 0), isLooping: true))
            let stale = try engine.play(sound, parameters: VoiceParameters(position: Vector3(3, 0, 0), isLooping: true))
            try engine.stop(stale)
            try engine.setPositions([Vector3(-4, 0, 0), Vector3(0, 0, -5), Vector3(9, 9, 9)], of: [first, second, stale])
            #expect(engine.parameters(of: first)?.position == Vector3(-4, 0, 0))
            #expect(engine.parameters(of: second)?.position == Vector3(0, 0, -5))
            #expect(engine.parameters(of: stale) == nil)
        }

        @Test func badInputMovesNothing() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sound = try TestEngine.sine(engine)
            let positional = try engine.play(sound, parameters: VoiceParameters(position: Vector3(1, 0, 0), isLooping: true))
            let flat = try engine.play(sound, parameters: VoiceParameters(position: nil, isLooping: true))
            #expect(throws: InterludeError.self) { try engine.setPositions([Vector3(2, 0, 0)], of: [positional, flat]) }
            #expect(throws: InterludeError.self) { try engine.setPositions([Vector3(2, 0, 0), Vector3(3, 0, 0)], of: [positional, flat]) }
            #expect(throws: InterludeError.self) { try engine.setPositions([Vector3(.nan, 0, 0)], of: [positional]) }
            #expect(engine.parameters(of: positional)?.position == Vector3(1, 0, 0))
        }

        @Test func movingToTheLeftPansLeft() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sound = try TestEngine.sine(engine)
            let voice = try engine.play(sound, parameters: VoiceParameters(position: Vector3(4, 0, 0), isLooping: true))
            try engine.setPositions([Vector3(-4, 0, 0)], of: [voice])
            let samples = try engine.render(frameCount: 4_800)
            var left = 0.0
            var right = 0.0
            for frame in 0..<4_800 {
                left += Double(samples[2 * frame] * samples[2 * frame])
                right += Double(samples[2 * frame + 1] * samples[2 * frame + 1])
            }
            #expect(left > right * 4, "left \(left), right \(right)")
        }
    }
}
