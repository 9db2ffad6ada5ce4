import Testing
@testable import Interlude

extension EngineSuites {
    /// A positional mono voice is panned toward its side of the listener.
    @Suite struct PanningTests {
        /// Renders a looping mono sine at `position` and returns (left RMS, right RMS) after the start ramp.
        static func leftRight(at position: Vector3) throws -> (left: Double, right: Double) {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sine = try TestEngine.sine(engine, frequency: 500, frameCount: 4_800)
            try engine.play(sine, parameters: VoiceParameters(position: position, isLooping: true))
            let samples = try engine.render(frameCount: 24_000)
            let frames = 4_800..<24_000
            return (SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: frames),
                    SignalMeasure.rms(samples, channel: 1, channelCount: 2, frames: frames))
        }

        @Test(arguments: [Vector3(1, 0, 0), Vector3(4, 0, 0)])
        func sourceAtPlusXIsLouderOnTheRight(position: Vector3) throws {
            let (left, right) = try Self.leftRight(at: position)
            #expect(right > 0.01, "right RMS \(right)")
            #expect(right >= 4 * left, "right/left = \(right / max(left, 1e-12)) (left \(left), right \(right))")
        }

        @Test(arguments: [Vector3(-1, 0, 0), Vector3(-4, 0, 0)])
        func sourceAtMinusXIsLouderOnTheLeft(position: Vector3) throws {
            let (left, right) = try Self.leftRight(at: position)
            #expect(left > 0.01, "left RMS \(left)")
            #expect(left >= 4 * right, "left/right = \(left / max(right, 1e-12)) (left \(left), right \(right))")
        }

        @Test func sourceStraightAheadIsCentred() throws {
            let (left, right) = try Self.leftRight(at: Vector3(0, 0, -2))
            #expect(left > 0.01)
            #expect(abs(SignalMeasure.decibels(left / right)) < 0.1, "left \(left), right \(right)")
        }
    }
}
