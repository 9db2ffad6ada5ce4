import Foundation
import Testing
@testable import Interlude

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
            // Paused: silence.
            let pausedFrames = Self.rate..<(Self.rate * 3 / 2)
            #expect(samples[(2 * pausedFrames.lowerBound)..<(2 * pausedFrames.upperBound)].allSatisfy { $0 == 0 })
            // Resumed at 1.5 s from the frame it paused on (1 s into the track).
            #expect(StreamMeasure.maximumDifference(samples, from: Self.rate * 3 / 2, track, from: Self.rate,
                                                    frameCount: Self.rate) <= Self.exact)
            // Stopped at 2.5 s.
            #expect(samples[(2 * Self.rate * 5 / 2)...].allSatisfy { $0 == 0 })
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
            // loop false: silence after the track's 2 s.
            #expect(samples[(2 * 2 * Self.rate)...].allSatisfy { $0 == 0 })
        }
    }
}
