import Testing
@testable import Interlude

extension EngineSuites {
    /// `print(event)` reads as words: every event, handle and option set a game prints says what
    /// happened without Swift's type names or raw values.
    @Suite struct EventDescriptionTests {
        static let voice = VoiceHandle(slot: 0, generation: 1, engineID: 0)
        static let music = MusicHandle(channel: .music, trackID: 3, engineID: 0)

        @Test func everyEventReadsAsWords() {
            let expected: [(EngineEvent, String)] = [
                (.session(.began(reason: .call, source: .phoneStream)), "interruption began: call from phoneStream"),
                (.session(.ended(shouldResume: true, resumed: ResumeSummary(music: true, voiceCount: 2), source: .game)),
                 "interruption ended (game): resumed music and 2 voices"),
                (.session(.ended(shouldResume: false, resumed: ResumeSummary(music: false, voiceCount: 0), source: .game)),
                 "interruption ended (game): not resumed"),
                (.session(.activated(resumed: ResumeSummary(music: false, voiceCount: 1))), "session activated: resumed 1 voice"),
                (.session(.commandDeferred(.change(Self.voice, [.gain, .position]))), "deferred: change gain, position of voice 0.1"),
                (.session(.commandDropped(.pauseMusic(.music))), "dropped: pause music"),
                (.session(.ignored), "interruption call ignored"),
                (.voice(.finished(Self.voice, reason: .stolen)), "voice 0.1 finished (stolen)"),
                (.voice(.resumed(Self.voice, positionInFrames: 480)), "voice 0.1 resumed at frame 480"),
                (.music(.ended(Self.music, positionInFrames: 96_000)), "music 3 on music ended at frame 96000"),
                (.music(.fadeFinished(Self.music)), "music 3 on music: fade finished"),
                (.music(.underrun(path: "theme.ogg", positionInFrames: 10)), "underrun in theme.ogg at frame 10"),
                (.device(.outputStarted(afterSeconds: 0.0416)), "output started after 42 ms"),
                (.device(.routeChanged(from: "Speakers", to: "HDMI")), "route changed from Speakers to HDMI"),
                (.design(.cueDropped(cue: CueID(name: "footstep"), reason: .cooldown)), "cue footstep dropped (cooldown)"),
                (.design(.snapshotStarted(MixSnapshotID(name: "pause"), fadeSeconds: 0.5)), "snapshot pause started (fade 0.5 s)"),
            ]
            for (event, words) in expected {
                #expect(event.description == words)
            }
        }

        @Test func anEmptyPropertySetSaysNothing() {
            #expect(VoiceProperties().description == "nothing")
            #expect(VoiceProperties([.looping, .effects]).description == "looping, effects")
        }

        /// A real event from an engine: a voice moved during an interruption is deferred, and the
        /// event that says so prints as words.
        @Test func aDeferredMovePrintsAsWords() throws {
            let rig = try SessionRig()
            let beep = try rig.engine.loadSound(path: TestPaths.asset("sfx/beep.wav"))
            let voice = try rig.engine.play(beep, parameters: VoiceParameters(position: Vector3(1, 0, 0), isLooping: true))
            try rig.engine.beginInterruption()
            try rig.engine.setPosition(Vector3(2, 0, 0), of: voice)
            let printed = rig.takeEvents().map { "\($0)" }
            #expect(printed.contains("deferred: change position of \(voice)"), "\(printed)")
            #expect(!printed.contains { $0.contains("Interlude.") || $0.contains("rawValue") }, "\(printed)")
        }
    }
}
