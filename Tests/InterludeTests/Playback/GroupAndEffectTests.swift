import Foundation
import Testing
@_spi(Tools) @testable import Interlude

extension EngineSuites {
    /// Groups (gain, mute, pause, ducking), fades, EFX and HRTF, measured on rendered samples.
    @Suite struct GroupAndEffectTests {
        private func unpositioned(_ engine: SoundEngine, _ sound: Sound, group: GroupID, loop: Bool = true) throws -> VoiceHandle {
            var parameters = VoiceParameters()
            parameters.isLooping = loop
            parameters.group = group
            return try engine.play(sound, parameters: parameters)
        }

        @Test func groupGainMuteAndPauseShowInTheRMS() throws {
            let engine = try VoicePoolFixture.engine()
            defer { engine.shutdown() }
            let tone = try VoicePoolFixture.tone(engine, frequencyHz: 440)
            _ = try unpositioned(engine, tone, group: .sfx)
            let full = VoicePoolFixture.rms(try engine.render(frameCount: 4_800), channel: 0, frames: 960..<4_800)
            try engine.setGain(0.5, of: .sfx)
            let half = VoicePoolFixture.rms(try engine.render(frameCount: 4_800), channel: 0, frames: 960..<4_800)
            #expect(abs(VoicePoolFixture.decibels(half / full) + 6.02) < 0.2)
            try engine.setMuted(true, of: .sfx)
            let muted = try engine.render(frameCount: 4_800)
            #expect(VoicePoolFixture.rms(muted, channel: 0, frames: 960..<4_800) == 0)
            try engine.setMuted(false, of: .sfx)
            try engine.setGain(1, of: .master)
            try engine.pause(.sfx)
            let paused = try engine.render(frameCount: 4_800)
            #expect(VoicePoolFixture.rms(paused, channel: 0, frames: 960..<4_800) == 0)
            try engine.resume(.sfx)
            let back = VoicePoolFixture.rms(try engine.render(frameCount: 4_800), channel: 0, frames: 960..<4_800)
            #expect(abs(VoicePoolFixture.decibels(back / half)) < 0.2)
        }

        @Test func duckingLowersTheMusicWhileTheVoiceGroupPlays() throws {
            let engine = try VoicePoolFixture.engine()
            defer { engine.shutdown() }
            let music = try VoicePoolFixture.tone(engine, frequencyHz: 220)
            let speech = try VoicePoolFixture.tone(engine, frequencyHz: 1_000, seconds: 0.5, amplitude: 0.0001)
            try engine.setDucking(12, of: .music, whilePlaying: .voice, attackSeconds: 0.1, releaseSeconds: 0.3)
            _ = try unpositioned(engine, music, group: .music)
            let before = VoicePoolFixture.rms(try engine.render(frameCount: 9_600), channel: 0, frames: 4_800..<9_600)
            _ = try unpositioned(engine, speech, group: .voice, loop: false)
            // Within the attack time (0.1 s, plus one update), the music is down by 12 dB.
            _ = try engine.render(frameCount: 5_760)
            let ducked = VoicePoolFixture.rms(try engine.render(frameCount: 4_800), channel: 0)
            #expect(abs(VoicePoolFixture.decibels(ducked / before) + 12) < 0.5)
            // The speech ends 0.5 s after it started; 0.3 s of release later the music is back.
            _ = try engine.render(frameCount: 48_000)
            let released = VoicePoolFixture.rms(try engine.render(frameCount: 4_800), channel: 0)
            #expect(abs(VoicePoolFixture.decibels(released / before)) < 0.3)
        }

        @Test(arguments: [FadeCurve.linear, .equalPower])
        func fadesLandOnTheirTargetAtTheSetTime(curve: FadeCurve) throws {
            let engine = try VoicePoolFixture.engine()
            defer { engine.shutdown() }
            let tone = try VoicePoolFixture.tone(engine, frequencyHz: 440)
            let voice = try unpositioned(engine, tone, group: .sfx)
            let full = VoicePoolFixture.rms(try engine.render(frameCount: 4_800), channel: 0, frames: 960..<4_800)
            try engine.setGain(0.25, of: voice, fadeSeconds: 0.5, curve: curve)
            _ = try engine.render(frameCount: 24_000)
            #expect(abs(engine.parameters(of: voice)!.gain - 0.25) < 1e-6)
            let landed = VoicePoolFixture.rms(try engine.render(frameCount: 4_800), channel: 0, frames: 960..<4_800)
            #expect(abs(VoicePoolFixture.decibels(landed / full) + 12.04) < 0.2)
            try engine.stop(voice, fadeSeconds: 0.2)
            _ = try engine.render(frameCount: 10_080)
            #expect(!engine.isPlaying(voice))
            try engine.setGain(0.5, of: .sfx, fadeSeconds: 0.3, curve: curve)
            _ = try engine.render(frameCount: 14_880)
            #expect(abs(engine.gain(of: .sfx) - 0.5) < 1e-6)
        }

        @Test func pitchFadesGlide() throws {
            let engine = try VoicePoolFixture.engine()
            defer { engine.shutdown() }
            let voice = try unpositioned(engine, try VoicePoolFixture.tone(engine, frequencyHz: 440), group: .sfx)
            try engine.setPitch(2, of: voice, fadeSeconds: 0.25)
            _ = try engine.render(frameCount: 12_480)
            let rendered = try engine.render(frameCount: 4_800)
            #expect(abs(VoicePoolFixture.frequency(rendered, channel: 0, frames: 480..<4_800) - 880) < 5)
        }

        @Test func occlusionCutsAFiveKilohertzToneTenfold() throws {
            let engine = try VoicePoolFixture.engine()
            defer { engine.shutdown() }
            let tone = try VoicePoolFixture.tone(engine, frequencyHz: 5_000)
            let dry = try unpositioned(engine, tone, group: .sfx)
            let open = VoicePoolFixture.rms(try engine.render(frameCount: 9_600), channel: 0, frames: 4_800..<9_600)
            try engine.changeParameters(of: dry) { $0.lowPassGainHF = 0.05 }
            let occluded = VoicePoolFixture.rms(try engine.render(frameCount: 9_600), channel: 0, frames: 4_800..<9_600)
            #expect(open / occluded >= 10)
            #expect(engine.statistics.alEffectObjectCount == 1)
        }

        @Test func reverbLeavesATailWhereTheDryRenderHasNone() throws {
            func tail(reverb: Bool) throws -> Double {
                let engine = try VoicePoolFixture.engine()
                defer { engine.shutdown() }
                let burst = try VoicePoolFixture.tone(engine, frequencyHz: 800, seconds: 0.1)
                let hall = reverb ? try engine.makeReverbZone(named: "hall", preset: .hall) : nil
                var parameters = VoiceParameters(position: Vector3(0, 0, -1))
                parameters.reverbZone = hall
                try engine.play(burst, parameters: parameters)
                let rendered = try engine.render(frameCount: 48_000)
                return VoicePoolFixture.rms(rendered, channel: 0, frames: 14_400..<38_400)
            }
            #expect(try tail(reverb: false) == 0)
            #expect(try tail(reverb: true) > 1e-3)
        }

        @Test func effectsAreRebuiltAfterADeviceLoss() throws {
            let engine = try VoicePoolFixture.engine()
            defer { engine.shutdown() }
            let cave = try engine.makeReverbZone(named: "cave", preset: .cave)
            try engine.setReverbZone(cave, of: .sfx)
            var parameters = VoiceParameters(position: Vector3(0, 0, -1), isLooping: true)
            parameters.lowPassGainHF = 0.5
            try engine.play(try VoicePoolFixture.tone(engine, frequencyHz: 600), parameters: parameters)
            _ = try engine.render(frameCount: 480)
            #expect(engine.statistics.alEffectObjectCount == 3)
            engine.disconnectDevice()
            try engine.reconnectDevice()
            _ = try engine.render(frameCount: 480)
            #expect(engine.statistics.alEffectObjectCount == 3)
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test func hrtfDelaysTheFarEar() throws {
            let engine = try VoicePoolFixture.engine(hrtf: true)
            defer { engine.shutdown() }
            #expect(engine.statistics.isHRTFEnabled)
            // A click at +x: the right ear hears it first.
            var samples = [Float](repeating: 0, count: 4_800)
            samples[100] = 1
            let click = try engine.makeSound(name: "click", format: AudioFormat(sampleRate: 48_000, channelCount: 1), samples: samples)
            try engine.play(click, parameters: VoiceParameters(position: Vector3(1, 0, 0)))
            let rendered = try engine.render(frameCount: 4_800)
            func onset(_ channel: Int) -> Int {
                let peak = (0..<4_800).map { abs(rendered[2 * $0 + channel]) }.max()!
                return (0..<4_800).first { abs(rendered[2 * $0 + channel]) >= peak * 0.5 }!
            }
            #expect(onset(0) > onset(1))
        }
    }
}
