import Testing
@testable import Interlude

extension EngineSuites {
    /// A stale handle does nothing, even when its slot has been reused.
    @Suite struct VoiceHandleTests {
        @Test func callsOnAStaleHandleDoNothing() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sine = try TestEngine.sine(engine)
            var parameters = VoiceParameters()
            parameters.isLooping = true
            let old = try engine.play(sine, parameters: parameters)
            _ = try engine.render(frameCount: 480)
            try engine.stop(old)
            #expect(!engine.isPlaying(old))
            #expect(engine.positionInFrames(of: old) == nil)

            // Nothing plays: calls on the stale handle start nothing.
            try engine.resume(old)
            try engine.pause(old)
            try engine.setGain(0.5, of: old)
            try engine.setPitch(2, of: old)
            try engine.changeParameters(of: old) { $0.gain = 0 }
            try engine.stop(old)
            let silent = try engine.render(frameCount: 4_800)
            #expect(SignalMeasure.rms(silent, channel: 0, channelCount: 2, frames: 64..<4_800) == 0)
            #expect(engine.statistics.voiceCount == 0)

            // The slot is reused with a new generation; the old handle still reaches nothing.
            let reused = try engine.play(sine, parameters: parameters)
            #expect(reused.slot == old.slot)
            #expect(reused.generation != old.generation)
            #expect(reused != old)
            let before = try engine.render(frameCount: 4_800)
            let level = SignalMeasure.rms(before, channel: 0, channelCount: 2, frames: 480..<4_800)
            #expect(level > 0.1)

            try engine.setGain(0, of: old)
            try engine.setPitch(2, of: old)
            try engine.pause(old)
            try engine.stop(old)
            #expect(engine.isPlaying(reused))
            #expect(engine.parameters(of: reused)?.gain == 1)
            #expect(engine.parameters(of: reused)?.pitch == 1)
            let after = try engine.render(frameCount: 4_800)
            #expect(abs(SignalMeasure.rms(after, channel: 0, channelCount: 2) - level) < 0.01 * level)
            #expect(SignalMeasure.zeroCrossingFrequency(after, channel: 0, channelCount: 2, sampleRate: 48_000) < 450)
            #expect(engine.statistics.internalErrorCount == 0)
        }

        /// One rule for a live and a stale handle: the arguments are checked first, so a bad
        /// one throws on either, and a good one on a stale handle does nothing.
        @Test("a bad argument throws the same on a live and a stale handle", arguments: [false, true])
        func badArgumentsThrowWhateverTheHandle(isStale: Bool) throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sine = try TestEngine.sine(engine)
            let voice = try engine.play(sine, parameters: VoiceParameters(position: Vector3(1, 0, 0), isLooping: true))
            _ = try engine.render(frameCount: 480)
            if isStale { try engine.stop(voice) }
            let notFinite = Vector3(.nan, 0, 0)
            let bad: [(String, () throws -> Void)] = [
                ("setPosition", { try engine.setPosition(notFinite, of: voice) }),
                ("setPositions", { try engine.setPositions([notFinite], of: [voice]) }),
                ("setVelocity", { try engine.setVelocity(notFinite, of: voice) }),
                ("setGain", { try engine.setGain(-1, of: voice) }),
                ("setPitch", { try engine.setPitch(0, of: voice) }),
                ("stop", { try engine.stop(voice, fadeSeconds: -1) }),
                ("pause", { try engine.pause(voice, fadeSeconds: .nan) }),
                ("resume", { try engine.resume(voice, fadeSeconds: -1) }),
            ]
            for (call, body) in bad {
                #expect(throws: InterludeError.self, "\(call) on a \(isStale ? "stale" : "live") handle") { try body() }
                do { try body() } catch let error as InterludeError {
                    #expect(error.code == .invalidArgument && error.message.hasPrefix(call), "\(call): \(error.message)")
                }
            }
            // Good arguments: applied on the live voice, nothing on the stale one.
            try engine.setPosition(Vector3(2, 0, 0), of: voice)
            try engine.setVelocity(Vector3(0, 0, 1), of: voice)
            #expect(engine.parameters(of: voice)?.position == (isStale ? nil : Vector3(2, 0, 0)))
        }

        @Test func aFinishedOneShotsSlotIsReusedWithANewGeneration() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let short = try TestEngine.sine(engine, frameCount: 960)
            let shot = try engine.play(short)
            _ = try engine.render(frameCount: 4_800)
            #expect(!engine.isPlaying(shot))
            var parameters = VoiceParameters()
            parameters.isLooping = true
            let next = try engine.play(short, parameters: parameters)
            #expect(next.slot == shot.slot)
            #expect(next.generation != shot.generation)
            try engine.stop(shot)
            try engine.setGain(0, of: shot)
            #expect(engine.isPlaying(next))
            let samples = try engine.render(frameCount: 4_800)
            #expect(SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: 480..<4_800) > 0.1)
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test func aHandleFromAnotherEngineDoesNothing() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let other = try TestEngine.offline()
            let otherSine = try TestEngine.sine(other)
            var parameters = VoiceParameters()
            parameters.isLooping = true
            let foreign = try other.play(otherSine, parameters: parameters)
            other.shutdown()

            let sine = try TestEngine.sine(engine)
            let mine = try engine.play(sine, parameters: parameters)
            #expect(mine.slot == foreign.slot && mine.generation == foreign.generation)
            try engine.stop(foreign)
            try engine.setGain(0, of: foreign)
            #expect(engine.isPlaying(mine))
            #expect(!engine.isPlaying(foreign))
            let samples = try engine.render(frameCount: 4_800)
            #expect(SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: 480..<4_800) > 0.1)
        }
    }
}
