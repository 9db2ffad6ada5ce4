@testable import Interlude
import Testing

/// Setters write the engine's model and the update sends what changed (issue 15, part 1): what
/// the mixer hears before and after the update that carries a change. `renderWithoutUpdates`
/// mixes the loopback device with no update in between, as a real device's mixer runs between
/// two driver ticks.
extension EngineSuites {
    @Suite struct DeferredParameterTests {
        /// Left RMS over right RMS in the second half of a stereo render (after OpenAL's ramp).
        private static func leftOverRight(_ samples: [Float]) -> Double {
            let frameCount = samples.count / 2
            let frames = frameCount / 2..<frameCount
            let left = SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: frames)
            let right = SignalMeasure.rms(samples, channel: 1, channelCount: 2, frames: frames)
            return left / max(right, 1e-12)
        }

        /// A looping sine on the listener's right (+x), rendered a little.
        private static func voiceOnTheRight(_ engine: SoundEngine) throws -> VoiceHandle {
            let sound = try TestEngine.sine(engine)
            let voice = try engine.play(sound, parameters: VoiceParameters(position: Vector3(4, 0, 0), isLooping: true))
            _ = try engine.render(frameCount: 4_800)
            #expect(Self.leftOverRight(engine.renderWithoutUpdates(frameCount: 4_800)) < 0.25)
            return voice
        }

        @Test func aMoveIsHeardFromTheNextUpdateOnNotBefore() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let voice = try Self.voiceOnTheRight(engine)
            try engine.setPosition(Vector3(-4, 0, 0), of: voice)
            #expect(engine.parameters(of: voice)?.position == Vector3(-4, 0, 0), "the model has the move at once")
            let beforeUpdate = engine.renderWithoutUpdates(frameCount: 4_800)
            #expect(Self.leftOverRight(beforeUpdate) < 0.25, "the setter made no AL call: still on the right")
            engine.update()
            let afterUpdate = engine.renderWithoutUpdates(frameCount: 4_800)
            #expect(Self.leftOverRight(afterUpdate) > 4, "the update sent the move: now on the left")
        }

        @Test func aBatchOfMovesIsHeardFromTheNextUpdate() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let voice = try Self.voiceOnTheRight(engine)
            try engine.setPositions([Vector3(-4, 0, 0)], of: [voice])
            #expect(Self.leftOverRight(engine.renderWithoutUpdates(frameCount: 4_800)) < 0.25)
            engine.update()
            #expect(Self.leftOverRight(engine.renderWithoutUpdates(frameCount: 4_800)) > 4)
        }

        @Test func gainAndListenerAreHeardFromTheNextUpdate() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let voice = try Self.voiceOnTheRight(engine)
            // The listener steps past the voice: it is now on the listener's left.
            try engine.changeListener { $0.position = Vector3(8, 0, 0) }
            try engine.setGain(0, of: voice)
            let beforeUpdate = engine.renderWithoutUpdates(frameCount: 4_800)
            #expect(Self.leftOverRight(beforeUpdate) < 0.25)
            #expect(SignalMeasure.totalRMS(beforeUpdate, channelCount: 2) > 0.01, "the old gain until the update")
            engine.update()
            let afterUpdate = engine.renderWithoutUpdates(frameCount: 4_800)
            #expect(afterUpdate.dropFirst(2 * 2_400).allSatisfy { $0 == 0 }, "gain 0 sent: exact silence")
            try engine.setGain(1, of: voice)
            engine.update()
            #expect(Self.leftOverRight(engine.renderWithoutUpdates(frameCount: 4_800)) > 4, "the listener moved")
        }

        /// Offline, a render that starts between two updates sends the changes before it mixes,
        /// as the update would have.
        @Test func aRenderBetweenUpdatesHearsTheChange() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let voice = try Self.voiceOnTheRight(engine)
            // 4,800 frames rendered: the next update is due now. 100 frames move it 380 away.
            _ = try engine.render(frameCount: 100)
            try engine.setPosition(Vector3(-4, 0, 0), of: voice)
            let between = try engine.render(frameCount: 380)
            // OpenAL ramps the new panning across this short mix, so the left is not yet at its
            // full share; unsent, the chunk would stay on the right (below 0.25).
            #expect(Self.leftOverRight(between) > 1.5)
            #expect(Self.leftOverRight(try engine.render(frameCount: 4_800)) > 4)
        }

        /// A voice that loses its source before the update and gets one back later plays with
        /// its latest parameters, the ones recorded while it was virtual included.
        @Test func aVoiceMadeVirtualAndRealAgainHasItsLatestPosition() throws {
            let engine = try TestEngine.offline { $0.realVoiceBudget = 1 }
            defer { engine.shutdown() }
            let voice = try Self.voiceOnTheRight(engine)
            try engine.setPosition(Vector3(-4, 0, 0), of: voice)
            let loud = try TestEngine.sine(engine, frequency: 1_000)
            var parameters = VoiceParameters(position: nil, isLooping: true)
            parameters.priority = 10
            let important = try engine.play(loud, parameters: parameters)
            #expect(!engine.isReal(voice))
            try engine.setPosition(Vector3(-5, 0, 0), of: voice)
            _ = try engine.render(frameCount: 4_800)
            try engine.stop(important)
            _ = try engine.render(frameCount: 960)
            #expect(engine.isReal(voice))
            #expect(Self.leftOverRight(try engine.render(frameCount: 4_800)) > 4)
        }
    }
}
