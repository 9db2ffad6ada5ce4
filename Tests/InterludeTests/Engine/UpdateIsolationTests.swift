import Testing
@testable import Interlude

/// The update's subsystems fail on their own: an AL call that keeps failing for one voice is
/// counted, and the soundtrack goes on being refilled.
extension EngineSuites {
    @Suite struct UpdateIsolationTests {
        @Test("A voice whose every state query fails does not starve the soundtrack")
        func failingVoiceDoesNotStarveTheMusic() throws {
            let rig = try SessionRig()
            defer { ALFaults.disarmAll() }
            try rig.engine.playMusic(path: SessionAssets.sweep, isLooping: false)
            // A silent one-shot longer than the render: it holds a real source all along.
            let long = try TestEngine.sine(rig.engine, frequency: 300, frameCount: 10 * TestEngine.sampleRate)
            let voice = try rig.engine.play(long, parameters: VoiceParameters(position: nil, gain: 0))
            let sourceName = try #require(rig.engine.readCore { $0.voiceTable.voice(for: voice)?.source?.name })
            ALFaults.arm(.sourceState(sourceName: sourceName), count: .max)
            // The stream queue holds 4 x 0.2 s: without refills it starves well before 3 s.
            try rig.render(seconds: 3)
            let lastSecond = (rig.frame - TestEngine.sampleRate)..<rig.frame
            #expect(rig.rms(lastSecond) > 0.1, "the soundtrack starved while the voice's calls failed")
            #expect(rig.engine.statistics.internalErrorCount > 100, "each failing update is counted")
        }
    }
}
