import Testing
@testable import Interlude

extension EngineSuites {
    /// A voice's and a group's fades say when they end, as a track's do: on the loopback device
    /// rendered one update at a time, the event comes in the update the mix reaches the fade's
    /// gain, heard below it before and at it from then on.
    @Suite struct FadeFinishedEventTests {
        static let rate = StreamTone.sampleRate
        static let updateFrames = UpdateRender.updateFrames

        /// An engine playing a looping 480 Hz tone as a plain voice in "sfx", and its level at gain 1.
        static func playingTone() throws -> (engine: SoundEngine, log: SessionEventLog, voice: VoiceHandle, fullRMS: Float) {
            let folder = try StreamFixtureFolder()
            let path = try folder.writeWAV("tone.wav", StreamTone.stereo(480, frameCount: rate / 2))
            let engine = try SoundEngine.streamTestEngine()
            let log = SessionEventLog()
            engine.setEventHandler { [log] event in log.append(event) }
            let tone = try engine.loadSound(path: path)
            let voice = try engine.play(tone, parameters: VoiceParameters(position: nil, isLooping: true))
            let settled = try engine.render(frameCount: updateFrames * 10)
            _ = log.take()
            return (engine, log, voice, StreamMeasure.rms(settled, frames: (updateFrames * 5)..<(updateFrames * 10)))
        }

        /// The one update that raised `event`, and the level before and after it.
        static func check(_ event: EngineEvent, in run: (samples: [Float], events: [[EngineEvent]]), fullRMS: Float,
                          targetGain: Float, updates: ClosedRange<Int>) throws {
            let raised = run.events.indices.filter { run.events[$0].contains(event) }
            try #require(raised.count == 1, "\(event) raised in updates \(raised): \(run.events.filter { !$0.isEmpty })")
            let update = raised[0]
            #expect(updates.contains(update), "\(event) in update \(update)")
            let before = StreamMeasure.rms(run.samples, frames: ((update - 3) * updateFrames)..<((update - 2) * updateFrames))
            #expect(abs(before / fullRMS - targetGain) > 0.02, "update \(update - 3) is already at \(before / fullRMS)")
            let after = StreamMeasure.rms(run.samples, frames: ((update + 1) * updateFrames)..<((update + 5) * updateFrames))
            #expect(abs(after / fullRMS - targetGain) < 0.01, "after \(event): \(after / fullRMS) of full, the fade's gain is \(targetGain)")
        }

        @Test("a voice's gain fade raises fadeFinished in the update it reaches its gain")
        func aVoiceFadeFinishes() throws {
            let (engine, log, voice, full) = try Self.playingTone()
            defer { engine.shutdown() }
            try engine.setGain(0.25, of: voice, fadeSeconds: 0.1)
            let run = try UpdateRender.byUpdate(engine, log, updates: 30)
            // 0.1 s is ten updates of 10 ms; summed in floating point, the tenth or the eleventh.
            try Self.check(.voice(.fadeFinished(voice)), in: run, fullRMS: full, targetGain: 0.25, updates: 9...11)
        }

        @Test("a voice's pause fade raises fadeFinished as it pauses; a stop's fade raises finished(stopped) only")
        func aVoicePauseFadeFinishes() throws {
            let (engine, log, voice, full) = try Self.playingTone()
            defer { engine.shutdown() }
            try engine.pause(voice, fadeSeconds: 0.05)
            let paused = try UpdateRender.byUpdate(engine, log, updates: 20)
            try Self.check(.voice(.fadeFinished(voice)), in: paused, fullRMS: full, targetGain: 0, updates: 4...6)
            try engine.resume(voice)
            try engine.stop(voice, fadeSeconds: 0.05)
            let stopped = try UpdateRender.byUpdate(engine, log, updates: 20).events.flatMap { $0 }
            #expect(stopped.contains(.voice(.finished(voice, reason: .stopped))))
            #expect(!stopped.contains(.voice(.fadeFinished(voice))), "\(stopped)")
        }

        @Test("a group's gain fade, and its pause fade, raise groupFadeFinished in the update each reaches its gain")
        func aGroupFadeFinishes() throws {
            let (engine, log, _, full) = try Self.playingTone()
            defer { engine.shutdown() }
            try engine.setGain(0.5, of: GroupID.sfx, fadeSeconds: 0.1)
            let faded = try UpdateRender.byUpdate(engine, log, updates: 30)
            try Self.check(.design(.groupFadeFinished(.sfx)), in: faded, fullRMS: full, targetGain: 0.5, updates: 9...11)
            try engine.pause(GroupID.sfx, fadeSeconds: 0.05)
            let paused = try UpdateRender.byUpdate(engine, log, updates: 20)
            try Self.check(.design(.groupFadeFinished(.sfx)), in: paused, fullRMS: full, targetGain: 0, updates: 4...6)
            #expect(engine.isPaused(GroupID.sfx))
        }
    }
}
