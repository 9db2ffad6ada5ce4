import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

extension EngineSuites {
    /// The soundtrack's scene actions through SceneRenderer, asserted on the rendered samples.
    @Suite struct MusicSceneTests {
        static let rate = StreamTone.sampleRate
        static let exact: Float = 1e-6

        /// Renders `events` (a JSON array) over `duration` seconds with the tracks in `folder`.
        static func render(_ events: String, duration: Double, folder: StreamFixtureFolder,
                           sounds: [String: String]) throws -> (samples: [Float], log: [String]) {
            let soundsJSON = sounds.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ")
            let json = """
            { "duration": \(duration), "sounds": { \(soundsJSON) }, "events": \(events) }
            """
            let scene = try SceneParser.parse(data: Data(json.utf8), sceneFolder: folder.directory.path, fileName: "music.json")
            var samples: [Float] = []
            let result = try SceneRenderer(scene: scene, sceneName: "music.json").render(output: { samples += $0 })
            return (samples, result.logLines)
        }

        @Test func playPauseResumeStop() throws {
            let folder = try StreamFixtureFolder()
            let track = StreamTone.stereo(400, frameCount: 3 * Self.rate)
            try folder.writeWAV("theme.wav", track)
            let (samples, _) = try Self.render("""
            [ { "at": 0.0, "do": "music.play", "sound": "theme" },
              { "at": 1.0, "do": "music.pause" },
              { "at": 1.5, "do": "music.resume" },
              { "at": 2.5, "do": "music.stop" } ]
            """, duration: 3, folder: folder, sounds: ["theme": "theme.wav"])
            #expect(samples.count == 3 * Self.rate * 2)
            // 0 to 1 s: the track from its start.
            #expect(StreamMeasure.maximumDifference(samples, from: 0, track, from: 0, frameCount: Self.rate) <= Self.exact)
            // Paused at 1 s: silence (1.19 at once; from 1.20 the track's next 64 frames fade
            // out first, see OpenALStack.pauseGain).
            let ramp = OpenALStack.deClickFrames
            #expect(StreamMeasure.maximumDifference(samples, from: Self.rate, track, from: Self.rate, frameCount: ramp, gain: OpenALStack.pauseGain) <= Self.exact)
            let pausedFrames = (Self.rate + ramp)..<(Self.rate * 3 / 2)
            #expect(samples[(2 * pausedFrames.lowerBound)..<(2 * pausedFrames.upperBound)].allSatisfy { $0 == 0 }, "\(OpenALStack.name)")
            // Resumed at 1.5 s from the frame it paused on (1 s into the track); from 1.20 the
            // first 64 frames fade in (OpenALStack.resumeGain).
            #expect(StreamMeasure.maximumDifference(samples, from: Self.rate * 3 / 2, track, from: Self.rate,
                                                    frameCount: Self.rate, gain: OpenALStack.resumeGain) <= Self.exact)
            // Stopped at 2.5 s: silence (from 1.20 after a 64-frame fade of what the stopped
            // stream still held).
            #expect(StreamMeasure.fadesOutOverTheRamp(samples, from: Self.rate * 5 / 2, nil, from: 0))
            #expect(samples[(2 * (Self.rate * 5 / 2 + ramp))...].allSatisfy { $0 == 0 })
        }

        @Test func interruptionAndDeviceLossResumeTheSoundtrackWhereItWas() throws {
            let folder = try StreamFixtureFolder()
            let track = StreamTone.stereo(480, frameCount: Self.rate)
            try folder.writeWAV("theme.wav", track)
            let (samples, log) = try Self.render("""
            [ { "at": 0.0, "do": "music.play", "sound": "theme" },
              { "at": 0.75, "do": "interruption.begin", "reason": "call" },
              { "at": 1.25, "do": "interruption.end", "shouldResume": true },
              { "at": 2.0, "do": "device.lost" },
              { "at": 2.5, "do": "device.restored" } ]
            """, duration: 3.5, folder: folder, sounds: ["theme": "theme.wav"])
            func trackFrame(_ played: Int) -> Int { played % Self.rate }
            // Played: 0 ..< 0.75 s, then 1.25 ..< 2.0 s, then 2.5 ..< 3.5 s, the loop counting on.
            // From 1.20 the resume after the interruption fades in over its first 64 frames
            // (OpenALStack.resumeGain); the rebuilt device's stream starts on a fresh queue, at
            // full level on both.
            let spans = [(0, 36_000, 0, false), (60_000, 96_000, 36_000, true), (120_000, 168_000, 72_000, false)]
            for (start, end, played, fadesIn) in spans {
                var worst: Float = 0
                for frame in start..<end {
                    let source = trackFrame(played + frame - start)
                    let gain = fadesIn ? OpenALStack.resumeGain(atFrame: frame - start) : 1
                    for channel in 0..<2 { worst = max(worst, abs(samples[2 * frame + channel] - gain * track[2 * source + channel])) }
                }
                #expect(worst <= Self.exact, "span from frame \(start) differs from the track by \(worst)")
            }
            for (start, end) in [(36_000, 60_000), (96_000, 120_000)] {
                #expect(samples[(2 * start)..<(2 * end)].allSatisfy { $0 == 0 }, "sound while interrupted from frame \(start)")
            }
            #expect(log.contains { $0.contains("musicSuspended") && $0.contains("36000") })
            #expect(log.contains { $0.contains("musicResumed") && $0.contains("36000") })
            #expect(log.contains { $0.contains("musicSuspended") && $0.contains("24000") }, "position modulo the loop at the device loss")
        }

        @Test func musicCommandsDuringAnInterruptionApplyAtItsEnd() throws {
            let folder = try StreamFixtureFolder()
            let first = StreamTone.stereo(400, frameCount: 2 * Self.rate)
            let second = StreamTone.stereo(600, frameCount: 2 * Self.rate)
            try folder.writeWAV("a.wav", first)
            try folder.writeWAV("b.wav", second)
            let (samples, _) = try Self.render("""
            [ { "at": 0.0, "do": "music.play", "sound": "a" },
              { "at": 0.5, "do": "interruption.begin" },
              { "at": 0.6, "do": "music.pause" },
              { "at": 1.0, "do": "interruption.end", "shouldResume": true },
              { "at": 1.5, "do": "music.resume" },
              { "at": 2.0, "do": "interruption.begin" },
              { "at": 2.1, "do": "music.crossfade", "sound": "b", "duration": 0.2 },
              { "at": 2.5, "do": "interruption.end", "shouldResume": true } ]
            """, duration: 3.5, folder: folder, sounds: ["a": "a.wav", "b": "b.wav"])
            // Paused during the interruption: silent until music.resume, then from frame 24000.
            #expect(samples[(2 * Self.rate / 2)..<(2 * Self.rate * 3 / 2)].allSatisfy { $0 == 0 })
            #expect(StreamMeasure.maximumDifference(samples, from: Self.rate * 3 / 2, first, from: Self.rate / 2,
                                                    frameCount: Self.rate / 2, gain: OpenALStack.resumeGain) <= Self.exact)
            // The crossfade given while interrupted: from the end on, only the second track.
            #expect(samples[(2 * 2 * Self.rate)..<(2 * Self.rate * 5 / 2)].allSatisfy { $0 == 0 })
            let after = (Self.rate * 3)..<(Self.rate * 7 / 2)
            #expect(abs(StreamMeasure.frequency(samples, frames: after) - 600) < 2)
            #expect(abs(StreamMeasure.decibels(StreamMeasure.rms(samples, frames: after) / StreamMeasure.rms(second, frames: 0..<Self.rate))) < 0.05)
        }

        @Test func crossfadeThroughAScene() throws {
            let folder = try StreamFixtureFolder()
            let first = StreamTone.stereo(400, frameCount: 2 * Self.rate)
            let second = StreamTone.stereo(600, frameCount: 2 * Self.rate)
            try folder.writeWAV("a.wav", first)
            try folder.writeWAV("b.wav", second)
            let (samples, log) = try Self.render("""
            [ { "at": 0.0, "do": "music.play", "sound": "a" },
              { "at": 1.0, "do": "music.crossfade", "sound": "b", "duration": 0.5 } ]
            """, duration: 3, folder: folder, sounds: ["a": "a.wav", "b": "b.wav"])
            #expect(StreamMeasure.maximumDifference(samples, from: 0, first, from: 0, frameCount: Self.rate) <= Self.exact)
            let full = StreamMeasure.rms(first, frames: 0..<Self.rate)
            let window = Self.rate / 100
            for start in stride(from: Self.rate, to: Self.rate * 3 / 2, by: window) {
                let decibels = StreamMeasure.decibels(StreamMeasure.rms(samples, frames: start..<(start + window)) / full)
                #expect(abs(decibels) <= 1.5, "crossfade window at frame \(start): \(decibels) dB")
            }
            // After the crossfade: the second track alone, looping, at full level.
            let after = (Self.rate * 2)..<(Self.rate * 3)
            #expect(abs(StreamMeasure.frequency(samples, frames: after) - 600) < 2)
            #expect(abs(StreamMeasure.decibels(StreamMeasure.rms(samples, frames: after) / full)) < 0.05)
            #expect(log.contains { $0.contains("music.crossfade") })
        }

        @Test func fadeInAndGainFromTheScene() throws {
            let folder = try StreamFixtureFolder()
            let track = StreamTone.stereo(400, frameCount: 2 * Self.rate)
            try folder.writeWAV("theme.wav", track)
            let (samples, _) = try Self.render("""
            [ { "at": 0.0, "do": "music.play", "sound": "theme", "gain": 0.5, "fadeIn": 0.5, "loop": false } ]
            """, duration: 2.5, folder: folder, sounds: ["theme": "theme.wav"])
            let window = Self.rate / 100
            let full = StreamMeasure.rms(track, frames: 0..<Self.rate) * 0.5
            #expect(StreamMeasure.rms(samples, frames: 0..<window) < 0.05 * full)
            let landed = (Self.rate * 6 / 10)..<Self.rate
            #expect(abs(StreamMeasure.decibels(StreamMeasure.rms(samples, frames: landed) / full)) < 0.05)
            // loop false: silence after the track's 2 s (from 1.20, after the fade of its last
            // sample over 64 frames).
            #expect(samples[(2 * (2 * Self.rate + OpenALStack.deClickFrames))...].allSatisfy { $0 == 0 })
        }
    }
}
