import Testing
@testable import Interlude

extension EngineSuites {
    /// A soundtrack whose source could not be made at playMusic is attached by the next update,
    /// as a voice without a source waits for one (it used to stay silent for good while
    /// isMusicPlaying() said true).
    @Suite struct MusicSourceFaultTests {
        @Test("alGenSources failing at playMusic: the soundtrack starts once a source can be made")
        func sourceFailureAtPlayMusicRecovers() throws {
            defer { ALFaults.disarmAll() }
            let rig = try SessionRig()
            ALFaults.arm(.genSources, count: 1)
            try rig.engine.playMusic(path: SessionAssets.sweep)
            #expect(rig.engine.statistics.internalErrorCount == 1)
            try rig.render(seconds: 1)
            #expect(rig.rms((rig.frame - rig.sampleRate / 2)..<rig.frame) > 0.1, "the soundtrack never started")
            #expect(rig.engine.musicError() == nil)
        }
    }
}
