import Foundation
import Testing
@_spi(Tools) @testable import Interlude

/// docs/scenes.md rules 2 to 5, sample by sample through the loopback device (48 kHz stereo).
extension EngineSuites {
    @Suite struct InterruptionRuleTests {
        /// 50 ms windows for reading the sweep's frequency.
        static let window = 2_400

        /// Plays the sweep, interrupts at 1 s, ends at 1.5 s; returns the rig and the frames.
        private func interruptedSweep(policy: ResumePolicy, shouldResume: Bool)
            throws -> (rig: SessionRig, beginFrame: Int, endFrame: Int, positionBefore: Int?, positionAfter: Int?) {
            let rig = try SessionRig(policy: policy)
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 1.0)
            let positionBefore = rig.engine.musicPosition()
            let beginFrame = rig.frame
            try rig.engine.beginInterruption(reason: .call)
            #expect(SessionRig.noContextIsCurrent)
            #expect(!rig.engineContextIsCurrent)
            try rig.render(seconds: 0.5)
            let endFrame = rig.frame
            try rig.engine.endInterruption(shouldResume: shouldResume)
            #expect(rig.engineContextIsCurrent)
            let positionAfter = rig.engine.musicPosition()
            return (rig, beginFrame, endFrame, positionBefore, positionAfter)
        }

        /// Resume error in ms: the sweep's time just after the end less its time at the begin.
        private func resumeErrorMilliseconds(_ rig: SessionRig, beginFrame: Int, endFrame: Int) -> Double {
            let before = rig.sweepSeconds(at: beginFrame - Self.window..<beginFrame) + Double(Self.window) / Double(rig.sampleRate)
            let after = rig.sweepSeconds(at: endFrame..<endFrame + Self.window)
            return (after - before) * 1000
        }

        @Test("Rule 2 and 3: exact zeros while interrupted, the soundtrack resumes within 5 ms", arguments: [
            (ResumePolicy.alwaysResume, false), (.alwaysResume, true), (.honorShouldResume, true),
        ])
        func silenceThenResume(policy: ResumePolicy, shouldResume: Bool) throws {
            let (rig, beginFrame, endFrame, before, after) = try interruptedSweep(policy: policy, shouldResume: shouldResume)
            try rig.render(seconds: 0.5)
            #expect(rig.isExactlySilent(beginFrame..<endFrame))
            #expect(before != nil && before == after)
            #expect(rig.engine.isTrackPlaying())
            let error = resumeErrorMilliseconds(rig, beginFrame: beginFrame, endFrame: endFrame)
            print("resume error (\(policy), shouldResume \(shouldResume)): \(error) ms")
            #expect(abs(error) < 5, "resumed \(error) ms away from where it stopped")
            // Position sanity: the sweep's time at the end frame is the tracked position.
            let tracked = Double(after ?? 0) / Double(SessionAssets.sweepSampleRate)
            #expect(abs(rig.sweepSeconds(at: endFrame..<endFrame + Self.window) - tracked) < 0.005)
            let events = rig.takeEvents()
            #expect(events.contains(.session(.began(reason: .call, source: .game))))
            #expect(events.contains(.music(.suspended(positionInFrames: before ?? -1))))
            #expect(events.contains(.music(.resumed(positionInFrames: after ?? -1))))
            #expect(events.contains(.session(.ended(shouldResume: shouldResume, resumed: ResumeSummary(music: true, voiceCount: 0), source: .game))))
            #expect(rig.engine.statistics.internalErrorCount == 0)
        }

        @Test("Rule 3: honorShouldResume with shouldResume false resumes nothing until resumeMusic / resume")
        func honorShouldResumeFalseWaits() throws {
            let rig = try SessionRig(policy: .honorShouldResume)
            let tone = try rig.engine.loadSound(path: SessionAssets.tone440)
            try rig.engine.playMusic(path: SessionAssets.sweep)
            let voice = try rig.engine.play(tone, parameters: VoiceParameters(position: nil, gain: 0.01, isLooping: true))
            try rig.render(seconds: 1.0)
            let position = rig.engine.musicPosition()
            try rig.engine.beginInterruption(reason: .call)
            try rig.render(seconds: 0.2)
            try rig.engine.endInterruption(shouldResume: false)
            let waited = try rig.render(seconds: 0.5)
            #expect(rig.isExactlySilent(waited))
            #expect(!rig.engine.isTrackPlaying())
            #expect(!rig.engine.isPlaying(voice))
            #expect(rig.engine.musicPosition() == position)
            #expect(rig.takeEvents().contains(.session(.ended(shouldResume: false, resumed: ResumeSummary(music: false, voiceCount: 0), source: .game))))
            try rig.engine.setGain(0, of: .sfx) // only the music, for the frequency
            try rig.engine.resume(rig.engine.track())
            let resumedFrame = rig.frame
            try rig.render(seconds: 0.3)
            #expect(rig.engine.isTrackPlaying())
            let expected = Double(position ?? 0) / Double(SessionAssets.sweepSampleRate)
            let error = (rig.sweepSeconds(at: resumedFrame..<resumedFrame + Self.window) - expected) * 1000
            print("resumeMusic after honorShouldResume/false: \(error) ms from the saved frame")
            #expect(abs(error) < 5)
            try rig.engine.stop(rig.engine.track())
            try rig.engine.setGain(1, of: .sfx)
            try rig.engine.resume(voice)
            let voiceFrames = try rig.render(seconds: 0.2)
            #expect(rig.engine.isPlaying(voice))
            #expect(rig.rms(voiceFrames) > 0.001)
        }

        // MARK: Rule 4: tracked commands

        @Test("Rule 4: music.pause during the interruption: the soundtrack does not resume", arguments: ResumePolicy.allCases)
        func musicPauseDuring(policy: ResumePolicy) throws {
            let rig = try SessionRig(policy: policy)
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 0.5)
            let position = rig.engine.musicPosition()
            try rig.engine.beginInterruption()
            try rig.engine.pause(rig.engine.track())
            try rig.render(seconds: 0.2)
            try rig.engine.endInterruption(shouldResume: true)
            let after = try rig.render(seconds: 0.5)
            #expect(rig.isExactlySilent(after))
            #expect(!rig.engine.isTrackPlaying())
            #expect(rig.engine.musicPosition() == position)
            #expect(rig.takeEvents().contains(.session(.commandDeferred(.pauseMusic(.music)))))
        }

        @Test("Rule 4: music.stop during the interruption: the soundtrack does not resume", arguments: ResumePolicy.allCases)
        func musicStopDuring(policy: ResumePolicy) throws {
            let rig = try SessionRig(policy: policy)
            let baseSources = rig.engine.statistics.alSourceCount
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 0.5)
            try rig.engine.beginInterruption()
            try rig.engine.stop(rig.engine.track())
            try rig.render(seconds: 0.2)
            try rig.engine.endInterruption(shouldResume: true)
            let after = try rig.render(seconds: 0.5)
            #expect(rig.isExactlySilent(after))
            #expect(!rig.engine.isTrackPlaying())
            #expect(rig.engine.musicPosition() == nil)
            #expect(rig.engine.statistics.alSourceCount == baseSources)
            #expect(rig.takeEvents().contains(.session(.commandDeferred(.stopMusic(.music)))))
        }

        @Test("Rule 4: music.play during the interruption plays from the end on, whatever the end says",
              arguments: [(ResumePolicy.alwaysResume, false), (.honorShouldResume, false), (.honorShouldResume, true)])
        func musicPlayDuring(policy: ResumePolicy, shouldResume: Bool) throws {
            let rig = try SessionRig(policy: policy)
            try rig.render(seconds: 0.2)
            try rig.engine.beginInterruption()
            try rig.engine.playMusic(path: SessionAssets.sweep)
            let during = try rig.render(seconds: 0.5)
            #expect(rig.isExactlySilent(during))
            #expect(rig.engine.musicPosition() == 0)
            let endFrame = rig.frame
            try rig.engine.endInterruption(shouldResume: shouldResume)
            try rig.render(seconds: 0.5)
            #expect(rig.engine.isTrackPlaying())
            let startError = rig.sweepSeconds(at: endFrame..<endFrame + Self.window) * 1000
            print("music.play during (\(policy), \(shouldResume)): started \(startError) ms into the track at the end")
            #expect(abs(startError) < 5)
            let events = rig.takeEvents()
            #expect(events.contains(.session(.commandDeferred(.playMusic(.music)))))
            #expect(events.contains(.music(.resumed(positionInFrames: 0))))
        }

        @Test("Rule 4: music.resume during the interruption plays from the end on, whatever the end says",
              arguments: [(ResumePolicy.alwaysResume, false), (.honorShouldResume, false)])
        func musicResumeDuring(policy: ResumePolicy, shouldResume: Bool) throws {
            let rig = try SessionRig(policy: policy)
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 0.8)
            try rig.engine.pause(rig.engine.track())
            let position = rig.engine.musicPosition()
            try rig.render(seconds: 0.2)
            try rig.engine.beginInterruption()
            try rig.engine.resume(rig.engine.track())
            let during = try rig.render(seconds: 0.3)
            #expect(rig.isExactlySilent(during))
            let endFrame = rig.frame
            try rig.engine.endInterruption(shouldResume: shouldResume)
            try rig.render(seconds: 0.3)
            #expect(rig.engine.isTrackPlaying())
            let expected = Double(position ?? 0) / Double(SessionAssets.sweepSampleRate)
            let error = (rig.sweepSeconds(at: endFrame..<endFrame + Self.window) - expected) * 1000
            print("music.resume during (\(policy), \(shouldResume)): \(error) ms from the paused frame")
            #expect(abs(error) < 5)
            #expect(rig.takeEvents().contains(.session(.commandDeferred(.resumeMusic(.music)))))
        }

        @Test("Rule 4: pause of a voice during the interruption sticks", arguments: ResumePolicy.allCases)
        func voicePauseDuring(policy: ResumePolicy) throws {
            let rig = try SessionRig(policy: policy)
            let tone = try rig.engine.loadSound(path: SessionAssets.tone440)
            let voice = try rig.engine.play(tone, parameters: VoiceParameters(position: nil, isLooping: true))
            try rig.render(seconds: 0.3)
            try rig.engine.beginInterruption()
            try rig.engine.pause(voice)
            try rig.render(seconds: 0.2)
            try rig.engine.endInterruption(shouldResume: true)
            let after = try rig.render(seconds: 0.3)
            #expect(rig.isExactlySilent(after))
            #expect(!rig.engine.isPlaying(voice))
            #expect(rig.takeEvents().contains(.session(.commandDeferred(.pause(voice)))))
            try rig.engine.resume(voice)
            let resumed = try rig.render(seconds: 0.1)
            #expect(rig.rms(resumed) > 0.1)
        }

        @Test("Rule 4: stop of a voice during the interruption sticks, and frees its source", arguments: ResumePolicy.allCases)
        func voiceStopDuring(policy: ResumePolicy) throws {
            let rig = try SessionRig(policy: policy)
            let tone = try rig.engine.loadSound(path: SessionAssets.tone440)
            let voice = try rig.engine.play(tone, parameters: VoiceParameters(position: nil, isLooping: true))
            try rig.render(seconds: 0.3)
            let sources = rig.engine.statistics.alSourceCount
            try rig.engine.beginInterruption()
            try rig.engine.stop(voice)
            try rig.render(seconds: 0.2)
            try rig.engine.endInterruption(shouldResume: true)
            let after = try rig.render(seconds: 0.3)
            #expect(rig.isExactlySilent(after))
            #expect(!rig.engine.isPlaying(voice))
            #expect(rig.engine.positionInFrames(of: voice) == nil)
            #expect(rig.engine.statistics.voiceCount == 0)
            #expect(rig.engine.statistics.alSourceCount == sources) // pooled, not leaked
            #expect(rig.takeEvents().contains(.session(.commandDeferred(.stop(voice)))))
        }

        @Test("Rule 4: a game moving and fading its voices every frame while interrupted gets one deferred change per voice and property, and hears every change after the end")
        func deferredChangesAreCoalesced() throws {
            let rig = try SessionRig()
            let tone = try rig.engine.loadSound(path: SessionAssets.tone440)
            let mover = try rig.engine.play(tone, parameters: VoiceParameters(position: Vector3(-4, 0, 0), isLooping: true))
            let quiet = try rig.engine.play(tone, parameters: VoiceParameters(position: nil, gain: 0, isLooping: true))
            try rig.render(seconds: 0.2)
            _ = rig.takeEvents()
            try rig.engine.beginInterruption()
            // 60 frames of a game loop: the mover crosses to the right and fades, the other voice
            // bends its pitch.
            for frame in 1...60 {
                try rig.engine.setPosition(Vector3(-4 + Float(frame) * 8 / 60, 0, 0), of: mover)
                try rig.engine.setGain(1 - Float(frame) / 120, of: mover)
                try rig.engine.setPitch(1 + Float(frame) / 120, of: quiet, fadeSeconds: 0.1)
                try rig.render(frames: 800)
            }
            let deferred = rig.takeEvents().filter { if case .session(.commandDeferred) = $0 { true } else { false } }
            #expect(deferred == [.session(.commandDeferred(.change(mover, .position))), .session(.commandDeferred(.change(mover, .gain))),
                                 .session(.commandDeferred(.change(quiet, .pitch)))])
            try rig.engine.endInterruption(shouldResume: true)
            let after = try rig.render(seconds: 0.3)
            // Every change is heard: the mover on the right at half its level.
            func rms(channel: Int) -> Double {
                let values = after.map { Double(rig.output[$0 * rig.channelCount + channel]) }
                return (values.reduce(0) { $0 + $1 * $1 } / Double(values.count)).squareRoot()
            }
            #expect(rms(channel: 1) > 3 * rms(channel: 0), "left \(rms(channel: 0)), right \(rms(channel: 1))")
            #expect(rig.engine.parameters(of: mover)?.gain == 0.5)
            // A later interruption reports its own changes again.
            try rig.engine.beginInterruption()
            try rig.engine.setPosition(Vector3(4, 0, 0), of: mover)
            try rig.engine.setPosition(Vector3(3, 0, 0), of: mover)
            #expect(rig.takeEvents().filter { if case .session(.commandDeferred) = $0 { true } else { false } }
                == [.session(.commandDeferred(.change(mover, .position)))])
        }

        @Test("Rule 4: play of a looping voice during the interruption starts at the end",
              arguments: [(ResumePolicy.alwaysResume, false), (.honorShouldResume, false)])
        func loopingPlayDuring(policy: ResumePolicy, shouldResume: Bool) throws {
            let rig = try SessionRig(policy: policy)
            let tone = try rig.engine.loadSound(path: SessionAssets.tone440)
            try rig.render(seconds: 0.1)
            try rig.engine.beginInterruption()
            let voice = try rig.engine.play(tone, parameters: VoiceParameters(position: nil, isLooping: true))
            #expect(rig.engine.isPlaying(voice))
            let during = try rig.render(seconds: 0.3)
            #expect(rig.isExactlySilent(during))
            let endFrame = rig.frame
            try rig.engine.endInterruption(shouldResume: shouldResume)
            try rig.render(seconds: 0.3)
            #expect(rig.engine.isPlaying(voice))
            let onset = rig.firstNonZeroFrame(in: endFrame..<rig.frame)
            #expect(onset != nil && onset! - endFrame <= 240, "first sound \(String(describing: onset.map { $0 - endFrame })) frames after the end")
            #expect(rig.rms(endFrame + 480..<rig.frame) > 0.1)
            let events = rig.takeEvents()
            #expect(events.contains(.session(.commandDeferred(.play(voice)))))
            #expect(events.contains(.voice(.resumed(voice, positionInFrames: 0))))
        }

        @Test("Rule 4: one-shot play and systemSound during the interruption are dropped", arguments: ResumePolicy.allCases)
        func oneShotsDropped(policy: ResumePolicy) throws {
            let rig = try SessionRig(policy: policy)
            let beep = try rig.engine.loadSound(path: SessionAssets.beep)
            try rig.render(seconds: 0.1)
            try rig.engine.beginInterruption()
            let voice = try rig.engine.play(beep)
            try rig.engine.playSystemSound(beep)
            #expect(!rig.engine.isPlaying(voice))
            try rig.render(seconds: 0.2)
            try rig.engine.endInterruption(shouldResume: true)
            let after = try rig.render(seconds: 0.5)
            #expect(rig.isExactlySilent(after))
            #expect(rig.engine.statistics.voiceCount == 0)
            let events = rig.takeEvents()
            #expect(events.contains(.session(.commandDropped(.play(voice)))))
            #expect(events.contains(.session(.commandDropped(.playSystemSound))))
        }

        // MARK: Activation

        @Test("Rule 3: a begin whose end never comes; activate() resumes", arguments: ResumePolicy.allCases)
        func activateEndsInterruption(policy: ResumePolicy) throws {
            let rig = try SessionRig(policy: policy)
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 1.0)
            let position = rig.engine.musicPosition()
            let beginFrame = rig.frame
            try rig.engine.beginInterruption(reason: .focusLost)
            try rig.render(seconds: 0.4)
            let endFrame = rig.frame
            try rig.engine.activate()
            #expect(rig.engine.sessionState == .active)
            #expect(rig.engineContextIsCurrent)
            #expect(rig.engine.musicPosition() == position)
            try rig.render(seconds: 0.3)
            #expect(rig.isExactlySilent(beginFrame..<endFrame))
            let error = resumeErrorMilliseconds(rig, beginFrame: beginFrame, endFrame: endFrame)
            print("activate() resume error (\(policy)): \(error) ms")
            #expect(abs(error) < 5)
            #expect(rig.takeEvents().contains(.session(.activated(resumed: ResumeSummary(music: true, voiceCount: 0)))))
        }

        @Test("activate() while active is ignored and changes nothing")
        func activateWhileActive() throws {
            let rig = try SessionRig()
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 0.5)
            _ = rig.takeEvents()
            try rig.engine.activate()
            try rig.render(seconds: 0.5)
            #expect(rig.takeEvents() == [.session(.ignored)])
            #expect(rig.engine.isTrackPlaying())
            // Continuous: the sweep's time at 0.9 s of output is 0.9 s.
            #expect(abs(rig.sweepSeconds(at: 43_200..<43_200 + Self.window) - 0.9) < 0.005)
        }

        @Test("activate() cannot end a device loss; reconnectDevice() resumes at the tracked frame")
        func activateCannotEndDeviceLoss() throws {
            let rig = try SessionRig()
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 1.0)
            let position = rig.engine.musicPosition()
            let lostFrame = rig.frame
            rig.engine.disconnectDevice()
            try rig.engine.activate()
            #expect(rig.engine.sessionState == .interrupted(reason: .deviceLost))
            #expect(rig.engine.statistics.deviceName == nil)
            try rig.render(seconds: 0.5)
            let restoredFrame = rig.frame
            try rig.engine.reconnectDevice()
            #expect(rig.engine.sessionState == .active)
            #expect(rig.engineContextIsCurrent)
            #expect(rig.engine.musicPosition() == position)
            try rig.render(seconds: 0.3)
            #expect(rig.isExactlySilent(lostFrame..<restoredFrame))
            let error = resumeErrorMilliseconds(rig, beginFrame: lostFrame, endFrame: restoredFrame)
            print("device loss (activate refused, then reconnect) resume error: \(error) ms")
            #expect(abs(error) < 5)
            let events = rig.takeEvents()
            #expect(events.contains(.device(.lost)))
            #expect(events.contains(.session(.ignored)))
            #expect(events.contains(.device(.rebuilt)))
        }

        // MARK: Rule 5

        @Test("Rule 5: a double begin is absorbed and one end resumes; an end while active is ignored",
              arguments: ResumePolicy.allCases)
        func doubleBeginAndStrayEnd(policy: ResumePolicy) throws {
            let rig = try SessionRig(policy: policy)
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 1.0)
            let beginFrame = rig.frame
            try rig.engine.beginInterruption(reason: .call)
            try rig.render(seconds: 0.2)
            try rig.engine.beginInterruption(reason: .other)
            #expect(rig.engine.sessionState == .interrupted(reason: .call))
            try rig.render(seconds: 0.2)
            let endFrame = rig.frame
            try rig.engine.endInterruption(shouldResume: true)
            #expect(rig.engine.sessionState == .active)
            try rig.engine.endInterruption(shouldResume: true)
            try rig.render(seconds: 0.3)
            #expect(rig.isExactlySilent(beginFrame..<endFrame))
            let error = resumeErrorMilliseconds(rig, beginFrame: beginFrame, endFrame: endFrame)
            #expect(abs(error) < 5)
            let events = rig.takeEvents()
            #expect(events.filter { if case .session(.began) = $0 { true } else { false } }.count == 1)
            #expect(events.contains(.session(.absorbed(reason: .other))))
            #expect(events.filter { if case .session(.ended) = $0 { true } else { false } }.count == 1)
            #expect(events.last == .session(.ignored))
        }

        // MARK: System sounds

        @Test("System sounds go silent during an interruption, are never resumed, and are usable right after",
              arguments: ResumePolicy.allCases)
        func systemSounds(policy: ResumePolicy) throws {
            let rig = try SessionRig(policy: policy)
            let beep = try rig.engine.loadSound(path: SessionAssets.beep)
            try rig.engine.playSystemSound(beep)
            let playing = try rig.render(seconds: 0.1)
            #expect(rig.rms(playing) > 0.1)
            let beginFrame = rig.frame
            try rig.engine.beginInterruption()
            #expect(rig.engine.statistics.voiceCount == 0)
            try rig.render(seconds: 0.2)
            try rig.engine.endInterruption(shouldResume: true)
            let after = try rig.render(seconds: 0.3)
            #expect(rig.isExactlySilent(beginFrame..<after.upperBound), "the cut-off beep came back")
            try rig.engine.playSystemSound(beep)
            let again = try rig.render(seconds: 0.1)
            #expect(rig.rms(again) > 0.1)
            #expect(rig.engine.statistics.internalErrorCount == 0)
        }

        // MARK: Context

        @Test("The current context is NULL while interrupted and the engine's after, for every way out")
        func currentContext() throws {
            let rig = try SessionRig()
            #expect(rig.engineContextIsCurrent)
            try rig.engine.beginInterruption()
            #expect(SessionRig.noContextIsCurrent)
            try rig.engine.endInterruption(shouldResume: false)
            #expect(rig.engineContextIsCurrent)
            try rig.engine.beginInterruption()
            #expect(SessionRig.noContextIsCurrent)
            try rig.engine.activate()
            #expect(rig.engineContextIsCurrent)
            rig.engine.disconnectDevice()
            #expect(SessionRig.noContextIsCurrent)
            try rig.engine.reconnectDevice()
            #expect(rig.engineContextIsCurrent)
            #expect(rig.engine.statistics.internalErrorCount == 0)
        }
    }
}
