import Foundation
import Synchronization
import Testing
@testable import Interlude

extension EngineSuites {
    /// The one control vocabulary (setGain, pause, resume, stop, each with a fade) on a voice,
    /// a music track and a group, and the finished-voice event, judged on rendered audio.
    @Suite struct OneVocabularyTests {
        static let rate = TestEngine.sampleRate
        /// 10 ms windows.
        static let window = rate / 100

        /// RMS of the left channel over `seconds` of `samples` starting at `startSeconds`.
        static func level(_ samples: [Float], from startSeconds: Double, seconds: Double = 0.01) -> Double {
            let start = Int(startSeconds * Double(rate))
            return SignalMeasure.rms(samples, channel: 0, channelCount: 2, frames: start..<(start + Int(seconds * Double(rate))))
        }

        /// Events as the engine delivers them.
        final class Recorder: Sendable {
            private let events = Mutex<[EngineEvent]>([])
            init(_ engine: SoundEngine) { engine.setEventHandler { [self] event in events.withLock { $0.append(event) } } }
            var all: [EngineEvent] { events.withLock { $0 } }
        }

        @Test("a voice stopped with a fade falls steadily to exact silence, then finishes as stopped")
        func voiceStopWithFade() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let recorder = Recorder(engine)
            let voice = try engine.play(TestEngine.sine(engine), parameters: VoiceParameters(position: nil, isLooping: true))
            _ = try engine.render(frameCount: Self.rate / 10)
            try engine.stop(voice, fadeSeconds: 0.5)
            let fading = try engine.render(frameCount: Self.rate)
            let levels = stride(from: 0.05, to: 0.45, by: 0.1).map { Self.level(fading, from: $0) }
            #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 > $1 }, "levels \(levels)")
            #expect(abs(levels[2] / levels[0] - 0.5 / 0.9) < 0.1, "half-way level \(levels[2] / levels[0])")
            #expect(fading[(Self.rate * 6 / 10 * 2)...].allSatisfy { $0 == 0 })
            #expect(!engine.isPlaying(voice))
            #expect(recorder.all.contains(.voice(.finished(voice, reason: .stopped))))
        }

        @Test("a voice paused with a fade holds its frame, and resumes with a fade to the gain it had")
        func voicePauseAndResumeWithFades() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let voice = try engine.play(TestEngine.sine(engine), parameters: VoiceParameters(position: nil, gain: 0.8, isLooping: true))
            let before = try engine.render(frameCount: Self.rate / 5)
            let full = Self.level(before, from: 0.15)
            try engine.pause(voice, fadeSeconds: 0.2)
            let pausing = try engine.render(frameCount: Self.rate / 2)
            #expect(Self.level(pausing, from: 0.1) < full * 0.7 && Self.level(pausing, from: 0.1) > full * 0.3)
            #expect(pausing[(Self.rate / 4 * 2)...].allSatisfy { $0 == 0 })
            let held = try #require(engine.positionInFrames(of: voice))
            _ = try engine.render(frameCount: Self.rate / 10)
            #expect(engine.positionInFrames(of: voice) == held)
            #expect(engine.parameters(of: voice)?.gain == 0.8)
            try engine.resume(voice, fadeSeconds: 0.2)
            let resuming = try engine.render(frameCount: Self.rate / 2)
            #expect(Self.level(resuming, from: 0.0) < full * 0.3)
            #expect(abs(Self.level(resuming, from: 0.4) / full - 1) < 0.02)
        }

        @Test("a one-shot that plays to its end finishes as ended; a system sound cut by an interruption, as interrupted")
        func finishedReasons() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let recorder = Recorder(engine)
            let short = try TestEngine.sine(engine, frameCount: Self.rate / 10)
            let oneShot = try engine.play(short)
            _ = try engine.render(frameCount: Self.rate / 5)
            let chime = try engine.playSystemSound(TestEngine.sine(engine, frequency: 880))
            try engine.beginInterruption()
            try engine.endInterruption(shouldResume: true)
            let events = recorder.all
            #expect(events.contains(.voice(.finished(oneShot, reason: .ended))))
            #expect(events.contains(.voice(.finished(chime, reason: .interrupted))))
            #expect(events.filter { if case .voice(.finished) = $0 { true } else { false } }.count == 2)
        }

        /// Voices, tracks and groups take one control path: each command checks its gain and
        /// fade the same way, before it looks its target up, and names the call and the target.
        /// A refused command changes nothing that is heard.
        @Test("a bad gain or fade is refused alike on a voice, a track and a group, live or gone, and nothing heard changes",
              arguments: [false, true])
        func oneRuleForEveryTarget(isGone: Bool) throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let voice = try engine.play(TestEngine.sine(engine), parameters: VoiceParameters(position: nil, isLooping: true))
            let theme = try engine.playMusic(path: TestPaths.asset("music/sweep.ogg"))
            _ = try engine.render(frameCount: Self.rate / 10)
            let group = isGone ? GroupID(name: "never made") : GroupID.sfx
            if isGone {
                try engine.stop(voice)
                try engine.stop(theme)
            }
            let before = try engine.render(frameCount: Self.rate / 10)
            let targets: [(name: String, gain: (Float, Double) throws -> Void, pause: (Double) throws -> Void,
                           resume: (Double) throws -> Void, stop: (Double) throws -> Void)] = [
                ("voice", { try engine.setGain($0, of: voice, fadeSeconds: $1) }, { try engine.pause(voice, fadeSeconds: $0) },
                 { try engine.resume(voice, fadeSeconds: $0) }, { try engine.stop(voice, fadeSeconds: $0) }),
                ("\(theme)", { try engine.setGain($0, of: theme, fadeSeconds: $1) }, { try engine.pause(theme, fadeSeconds: $0) },
                 { try engine.resume(theme, fadeSeconds: $0) }, { try engine.stop(theme, fadeSeconds: $0) }),
                ("\(group)", { try engine.setGain($0, of: group, fadeSeconds: $1) }, { try engine.pause(group, fadeSeconds: $0) },
                 { try engine.resume(group, fadeSeconds: $0) }, { try engine.stop(group, fadeSeconds: $0) }),
            ]
            for target in targets {
                let refused: [(call: String, problem: String, body: () throws -> Void)] = [
                    ("setGain(of: \(target.name))", "gain must be", { try target.gain(-1, 0) }),
                    ("setGain(of: \(target.name))", "gain must be", { try target.gain(.nan, 0) }),
                    ("setGain(of: \(target.name))", "fadeSeconds must be", { try target.gain(0.5, -1) }),
                    ("pause(\(target.name))", "fadeSeconds must be", { try target.pause(.nan) }),
                    ("resume(\(target.name))", "fadeSeconds must be", { try target.resume(-0.5) }),
                    ("stop(\(target.name))", "fadeSeconds must be", { try target.stop(.infinity) }),
                ]
                for (call, problem, body) in refused {
                    do {
                        try body()
                        Issue.record("\(call) took a bad argument")
                    } catch let error as InterludeError {
                        #expect(error.code == .invalidArgument && error.message.hasPrefix("\(call): \(problem)"), "\(error.message)")
                    }
                }
            }
            let after = try engine.render(frameCount: Self.rate / 10)
            let (levelBefore, levelAfter) = (Self.level(before, from: 0.05, seconds: 0.05), Self.level(after, from: 0.05, seconds: 0.05))
            if isGone {
                #expect(levelBefore == 0 && levelAfter == 0)
            } else {
                #expect(levelBefore > 0.1 && abs(levelAfter / levelBefore - 1) < 0.15, "\(levelBefore) -> \(levelAfter)")
                #expect(engine.isPlaying(voice) && engine.isPlaying(theme))
            }
        }

        @Test("a music track's gain fades, its pause fades out and holds the frame, its resume fades back in")
        func musicControls() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let theme = try engine.playMusic(path: TestPaths.asset("music/sweep.ogg"))
            let before = try engine.render(frameCount: Self.rate / 2)
            let full = Self.level(before, from: 0.4, seconds: 0.1)
            try engine.setGain(0.25, of: theme, fadeSeconds: 0.2)
            let lowered = try engine.render(frameCount: Self.rate / 2)
            #expect(abs(Self.level(lowered, from: 0.35, seconds: 0.1) / full - 0.25) < 0.05)
            try engine.pause(theme, fadeSeconds: 0.1)
            let pausing = try engine.render(frameCount: Self.rate / 4)
            #expect(pausing[(Self.rate * 15 / 100 * 2)...].allSatisfy { $0 == 0 })
            let held = try #require(engine.positionInFrames(of: theme))
            #expect(!engine.isPlaying(theme))
            try engine.resume(theme, fadeSeconds: 0.1)
            let resumed = try engine.render(frameCount: Self.rate / 2)
            #expect(Self.level(resumed, from: 0.0, seconds: 0.005) < Self.level(resumed, from: 0.3, seconds: 0.1))
            #expect(abs(Self.level(resumed, from: 0.3, seconds: 0.1) / full - 0.25) < 0.05)
            #expect(try #require(engine.positionInFrames(of: theme)) > held)
        }

        @Test("after a crossfade the old track's handle still reads its position, then goes stale, and commands with it do nothing")
        func crossfadeHandles() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let theme = try engine.playMusic(path: TestPaths.asset("music/theme.ogg"))
            _ = try engine.render(frameCount: Self.rate)
            let sweep = try engine.crossfadeMusic(toPath: TestPaths.asset("music/sweep.ogg"), fadeSeconds: 1)
            #expect(engine.music() == sweep)
            _ = try engine.render(frameCount: Self.rate / 2)
            let old = try #require(engine.positionInFrames(of: theme))
            let new = try #require(engine.positionInFrames(of: sweep))
            #expect(old > Self.rate && new < Self.rate)
            // The outgoing track takes no commands: pausing it changes nothing.
            try engine.pause(theme)
            #expect(engine.isPlaying(sweep))
            _ = try engine.render(frameCount: Self.rate)
            #expect(engine.positionInFrames(of: theme) == nil)
            try engine.stop(theme)
            try engine.setGain(0, of: theme)
            #expect(engine.isPlaying(sweep))
        }

        @Test("a group paused with a fade goes silent and holds its voices; pauseAll and resumeAll do it for everything")
        func groupAndAll() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let voice = try engine.play(TestEngine.sine(engine), parameters: VoiceParameters(position: nil, isLooping: true))
            let before = try engine.render(frameCount: Self.rate / 5)
            let full = Self.level(before, from: 0.15)
            try engine.pause(GroupID.sfx, fadeSeconds: 0.2)
            let pausing = try engine.render(frameCount: Self.rate / 2)
            #expect(Self.level(pausing, from: 0.1) < full * 0.7)
            #expect(pausing[(Self.rate / 4 * 2)...].allSatisfy { $0 == 0 })
            #expect(engine.isPaused(.sfx))
            let held = try #require(engine.positionInFrames(of: voice))
            _ = try engine.render(frameCount: Self.rate / 10)
            #expect(engine.positionInFrames(of: voice) == held)
            try engine.resume(GroupID.sfx, fadeSeconds: 0.1)
            let back = try engine.render(frameCount: Self.rate / 2)
            #expect(abs(Self.level(back, from: 0.3) / full - 1) < 0.02)
            #expect(engine.gain(of: .sfx) == 1)

            try engine.pauseAll()
            // Silent at once (from 1.20, once the mixer's 64-frame de-click fade-out is done).
            #expect(try engine.render(frameCount: Self.rate / 10)[(2 * OpenALStack.deClickFrames)...].allSatisfy { $0 == 0 })
            #expect(engine.isPaused(.sfx))
            try engine.resumeAll()
            _ = try engine.render(frameCount: Self.rate / 10)
            #expect(Self.level(try engine.render(frameCount: Self.rate / 10), from: 0.02) > full * 0.95)

            try engine.stop(GroupID.sfx, fadeSeconds: 0.1)
            let stopping = try engine.render(frameCount: Self.rate / 2)
            #expect(stopping[(Self.rate / 5 * 2)...].allSatisfy { $0 == 0 })
            #expect(!engine.isPlaying(voice))
        }
    }
}
