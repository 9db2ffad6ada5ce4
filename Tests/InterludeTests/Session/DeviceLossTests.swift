import Foundation
import Testing
@_spi(Tools) @testable import Interlude

/// docs/scenes.md rule 6: device.lost / device.restored is a real teardown and rebuild.
extension EngineSuites {
    @Suite struct DeviceLossTests {
        @Test("Scene: exact silence during the loss, the soundtrack resumes within 5 ms of its tracked frame")
        func soundtrackThroughLoss() throws {
            let render = try SessionSceneRender(json: """
                { "duration": 2.5, "sounds": { "sweep": "\(SessionAssets.sweep)" }, "events": [
                  { "at": 0, "do": "music.play", "sound": "sweep" },
                  { "at": 1.0, "do": "device.lost" },
                  { "at": 1.5, "do": "device.restored" } ] }
                """)
            let lost = render.frame(1.0), restored = render.frame(1.5), window = 2_400
            #expect(render.isExactlySilent(lost..<restored))
            let before = render.sweepSeconds(at: lost - window..<lost) + Double(window) / 48_000
            let after = render.sweepSeconds(at: restored..<restored + window)
            let error = (after - before) * 1000
            print("device loss scene: resume error \(error) ms")
            #expect(abs(error) < 5)
            let suspended = render.sessionLines.first { $0.event == "musicSuspended" }?.fields["positionInFrames"] as? Int
            let resumed = render.sessionLines.first { $0.event == "musicResumed" }?.fields["positionInFrames"] as? Int
            #expect(suspended != nil && suspended == resumed)
            #expect(abs(Double(resumed ?? 0) / 44_100 - 1.0) < 0.005)
            let events = render.sessionLines.map(\.event)
            #expect(events.contains("deviceLost") && events.contains("deviceRestored"))
        }

        @Test("Scene: looping voices resume where they were after the device comes back")
        func loopingVoiceThroughLoss() throws {
            let render = try SessionSceneRender(json: """
                { "duration": 2.0, "sounds": { "tone": "\(SessionAssets.tone440)" }, "events": [
                  { "at": 0.3, "do": "play", "id": "hum", "sound": "tone", "loop": true },
                  { "at": 1.0, "do": "device.lost" },
                  { "at": 1.5, "do": "device.restored" } ] }
                """)
            #expect(render.isExactlySilent(render.frame(1.0)..<render.frame(1.5)))
            #expect(render.rms(render.frame(1.51)..<render.frame(2.0)) > 0.1)
            let resumed = try #require(render.sessionLines.first { $0.event == "voiceResumed" })
            #expect(resumed.frame == render.frame(1.5))
            #expect(resumed.fields["id"] as? String == "hum")
            let position = try #require(resumed.fields["positionInFrames"] as? Int)
            // 0.7 s of the 44.1 kHz tone had played.
            #expect(abs(position - 30_870) <= 2, "voice resumed at frame \(position)")
        }

        @Test("20 loss and restore cycles: no AL source or buffer leaks, no internal errors, audible each time")
        func noLeaksAcrossCycles() throws {
            let rig = try SessionRig()
            let tone = try rig.engine.loadSound(path: SessionAssets.tone440)
            let beep = try rig.engine.loadSound(path: SessionAssets.beep)
            try rig.engine.playMusic(path: SessionAssets.sweep, gain: 0.5)
            let hum = try rig.engine.play(tone, parameters: VoiceParameters(position: Vector3(-2, 0, 0), isLooping: true))
            try rig.render(seconds: 0.1)
            let baseline = rig.engine.statistics
            var counts: [(sources: Int, buffers: Int)] = []
            for cycle in 0..<20 {
                try rig.engine.play(beep)
                rig.engine.disconnectDevice()
                #expect(rig.engine.statistics.alSourceCount == 0)
                let lost = try rig.render(seconds: 0.05)
                #expect(rig.isExactlySilent(lost), "cycle \(cycle)")
                try rig.engine.reconnectDevice()
                let back = try rig.render(seconds: 0.4) // the beep (0.25 s) has ended by now
                #expect(rig.rms(back) > 0.05, "cycle \(cycle)")
                #expect(rig.engine.isPlaying(hum) && rig.engine.isTrackPlaying())
                let statistics = rig.engine.statistics
                counts.append((statistics.alSourceCount, statistics.alBufferCount))
                #expect(statistics.internalErrorCount == 0)
                #expect(statistics.voiceCount == 1)
            }
            print("AL sources/buffers: baseline \(baseline.alSourceCount)/\(baseline.alBufferCount), cycles \(counts.map { "\($0.sources)/\($0.buffers)" })")
            #expect(counts.allSatisfy { $0.sources == counts[0].sources && $0.buffers == counts[0].buffers })
            #expect(counts[0].buffers == baseline.alBufferCount)
            rig.engine.shutdown()
            #expect(rig.engine.statistics.alSourceCount == 0 && rig.engine.statistics.alBufferCount == 0)
        }
    }
}
