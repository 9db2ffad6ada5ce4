import Testing
@testable import Interlude

extension EngineSuites {
    /// Every command given while the session is interrupted says so: the listener, the
    /// soundtrack's gain, groups, parameters and snapshots, as voices and the soundtrack's
    /// transport already did. Changes, which a game may make every frame, are reported once per
    /// target for each interruption; pauses, resumes, stops and snapshots each time.
    @Suite struct DeferredCommandEventTests {
        static func deferred(_ events: [EngineEvent]) -> [DeferredCommand] {
            events.compactMap { event in
                if case .session(.commandDeferred(let command)) = event { command } else { nil }
            }
        }

        /// Gives the commands a pause screen might: the listener moved every frame, the
        /// soundtrack and the effects turned down, a parameter followed, a snapshot in and out.
        static func giveCommands(_ engine: SoundEngine, music: MusicHandle, quiet: MixSnapshotID) throws {
            for frame in 0..<15 {
                try engine.changeListener { $0.position = Vector3(Float(frame), 0, 0) }
            }
            try engine.setDistanceModel(.linearClamped)
            for gain: Float in [0.5, 0.3, 0.25] { try engine.setGain(gain, of: music) }
            for gain: Float in [0.8, 0.6] { try engine.setGain(gain, of: GroupID.sfx) }
            try engine.setMuted(false, of: .sfx)
            try engine.pause(GroupID.sfx)
            try engine.resume(GroupID.sfx)
            for value: Float in [1, 2, 3, 4, 5] { try engine.setParameter(value, of: "speed") }
            try engine.blendIn(quiet)
            try engine.blendOut(quiet)
        }

        @Test("while interrupted, each command is reported as deferred, changes once per target; while active, none")
        func everyDeferredCommandIsReported() throws {
            let rig = try SessionRig()
            try rig.engine.makeParameter(named: "speed", range: 0...10)
            let quiet = try rig.engine.makeMixSnapshot(named: "quiet", groups: [.sfx: GroupMix(gain: 0.2)])
            let music = try rig.engine.playMusic(path: SessionAssets.sweep)
            let before = try rig.render(seconds: 0.5)

            try Self.giveCommands(rig.engine, music: music, quiet: quiet)
            #expect(Self.deferred(rig.takeEvents()).isEmpty, "nothing is deferred while the session is active")
            try rig.engine.setGain(1, of: music)
            try rig.engine.setGain(1, of: GroupID.sfx)

            try rig.engine.beginInterruption()
            _ = rig.takeEvents()
            try Self.giveCommands(rig.engine, music: music, quiet: quiet)
            let reported = Self.deferred(rig.takeEvents())
            #expect(reported == [.changeListener, .setMusicGain(.music), .changeGroup(.sfx), .pauseGroup(.sfx), .resumeGroup(.sfx),
                                 .setParameter("speed"), .blendIn(quiet), .blendOut(quiet)], "\(reported)")
            #expect(rig.isExactlySilent(try rig.render(seconds: 0.2)))
            try rig.engine.endInterruption(shouldResume: true)

            // The soundtrack's gain set during the call is heard at its end: a quarter of before.
            let after = try rig.render(seconds: 0.5)
            let ratio = rig.rms(after) / rig.rms(before)
            #expect(abs(ratio - 0.25) < 0.03, "the soundtrack came back at \(ratio) of its level; 0.25 was set during the call")

            // A cue voice's own parameter, twice: once.
            try rig.engine.beginInterruption()
            var cue = CueDefinition(variants: [try rig.engine.loadSound(path: SessionAssets.tone440)])
            cue.isLooping = true
            cue.curves = [CueCurve(.gain, parameter: "speed", points: [.init(x: 0, y: 0.5), .init(x: 10, y: 1)])]
            let hum = try rig.engine.play(cue: try rig.engine.makeCue(named: "hum", cue))
            _ = rig.takeEvents()
            try rig.engine.setParameter(2, of: "speed", on: hum)
            try rig.engine.setParameter(3, of: "speed", on: hum)
            #expect(Self.deferred(rig.takeEvents()) == [.setVoiceParameter("speed", hum)])
            try rig.engine.endInterruption(shouldResume: true)

            // A new interruption reports the changes again.
            try rig.engine.beginInterruption()
            _ = rig.takeEvents()
            try rig.engine.changeListener { $0.position = Vector3(0, 0, 1) }
            try rig.engine.changeListener { $0.position = Vector3(0, 0, 2) }
            #expect(Self.deferred(rig.takeEvents()) == [.changeListener])
        }
    }
}
