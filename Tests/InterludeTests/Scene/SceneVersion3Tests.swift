import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

extension EngineSuites {
    /// Scene version 3: cues, parameters and snapshots rendered, logged and refused as
    /// docs/scenes.md says.
    @Suite struct SceneVersion3Tests {
        static let frequencies: [String: Double] = ["low": 300, "mid": 500, "high": 800]

        /// Float WAV sines (0.5 s at 48 kHz, amplitude 0.5) named low, mid and high.
        private final class Tones: ScratchFolder {
            init() throws {
                try super.init(prefix: "scene-v3")
                for (name, frequency) in SceneVersion3Tests.frequencies {
                    let writer = try WAVFileWriter(path: path("\(name).wav"), format: AudioFormat(sampleRate: 48_000, channelCount: 1),
                                                   sampleType: .float32)
                    try writer.append(TestEngine.sineSamples(frequency: frequency, frameCount: 24_000))
                    try writer.finish()
                }
            }

            var sounds: String {
                SceneVersion3Tests.frequencies.keys.sorted().map { "\"\($0)\": \"\(path("\($0).wav"))\"" }.joined(separator: ", ")
            }
        }

        private func render(_ tones: Tones, _ body: String) throws -> SessionSceneRender {
            try SessionSceneRender(json: "{ \"sounds\": { \(tones.sounds) }, \(body) }")
        }

        private func lines(_ render: SessionSceneRender, _ event: String) -> [[String: Any]] {
            render.log.filter { $0["event"] as? String == event && $0["do"] == nil }
        }

        /// Plays 0.7 s apart: a 0.5 s variant at pitch 0.8 has ended before the next starts.
        @Test func cuePlayedNamesTheVariantGainAndPitchThatAreHeard() throws {
            let tones = try Tones()
            let plain = try render(tones, #""duration": 0.3, "events": [{ "at": 0, "do": "play", "sound": "low" }]"#)
            let reference = plain.rms(960..<4_800)
            let render = try render(tones, """
                "duration": 3.5, "seed": 5,
                "cues": { "tone": { "variants": ["low", "mid", "high"], "order": "random", "gain": [0.3, 1], "pitch": [0.8, 1.25] } },
                "events": [
                  { "at": 0.0, "do": "cue", "cue": "tone", "id": "a" }, { "at": 0.7, "do": "cue", "cue": "tone" },
                  { "at": 1.4, "do": "cue", "cue": "tone" }, { "at": 2.1, "do": "cue", "cue": "tone" },
                  { "at": 2.8, "do": "cue", "cue": "tone" } ]
                """)
            let played = lines(render, "cuePlayed")
            #expect(played.count == 5)
            #expect(played.first?["id"] as? String == "a")
            for (index, line) in played.enumerated() {
                let frame = try #require(line["frame"] as? Int)
                #expect(frame == render.frame(0.7 * Double(index)))
                let variant = try #require(line["variant"] as? String)
                let gain = try #require(line["gain"] as? Double), pitch = try #require(line["pitch"] as? Double)
                let window = frame + 960..<frame + 9_600
                let heard = SignalMeasure.zeroCrossingFrequency(render.samples, channel: 0, channelCount: 2, sampleRate: 48_000, frames: window)
                #expect(abs(heard / (Self.frequencies[variant]! * pitch) - 1) < 0.01, "\(variant) x \(pitch) heard at \(heard) Hz")
                #expect(abs(render.rms(window) / reference - gain) < 0.03, "gain \(gain): level \(render.rms(window) / reference)")
            }
        }

        private let seeded = """
            "duration": 1, "seed": SEED,
            "cues": { "tone": { "variants": ["low", "mid", "high"], "order": "random", "gain": [0.2, 1], "pitch": [0.5, 2] } },
            "events": [ { "at": 0, "do": "cue", "cue": "tone" }, { "at": 0.25, "do": "cue", "cue": "tone" },
                        { "at": 0.5, "do": "cue", "cue": "tone" }, { "at": 0.75, "do": "cue", "cue": "tone" } ]
            """

        @Test func theSameSeedRendersTheSameBytesAndAnotherDiffers() throws {
            let tones = try Tones()
            let first = try render(tones, seeded.replacingOccurrences(of: "SEED", with: "9"))
            let again = try render(tones, seeded.replacingOccurrences(of: "SEED", with: "9"))
            let other = try render(tones, seeded.replacingOccurrences(of: "SEED", with: "10"))
            #expect(first.samples == again.samples)
            #expect(first.logLines == again.logLines)
            #expect(first.samples != other.samples)
        }

        @Test func parametersSnapshotsAndDropsAreLoggedAndHeard() throws {
            let tones = try Tones()
            let render = try render(tones, """
                "duration": 2,
                "parameters": { "speed": { "min": 0, "max": 10 } },
                "snapshots": { "quiet": { "groups": { "sfx": { "gain": 0.5 } } } },
                "cues": {
                  "hum": { "variants": ["mid"], "loop": true, "curves": { "gain": { "parameter": "speed", "points": [[0, 0.25], [10, 1]] } } },
                  "blip": { "variants": ["high"], "cooldown": 0.5, "maxVoices": 1, "steal": "none" } },
                "events": [
                  { "at": 0, "do": "cue", "cue": "hum", "id": "h" },
                  { "at": 0.3, "do": "parameter", "name": "speed", "value": 10 },
                  { "at": 0.6, "do": "snapshot.start", "name": "quiet" },
                  { "at": 0.9, "do": "snapshot.stop", "name": "quiet" },
                  { "at": 1.0, "do": "snapshot.stop", "name": "quiet" },
                  { "at": 1.2, "do": "stop", "id": "h" },
                  { "at": 1.3, "do": "cue", "cue": "blip" },
                  { "at": 1.4, "do": "cue", "cue": "blip" } ]
                """)
            let f = render.frame
            let quarter = render.rms(f(0.1)..<f(0.25)), full = render.rms(f(0.4)..<f(0.55))
            let halved = render.rms(f(0.7)..<f(0.85)), restored = render.rms(f(0.95)..<f(1.15))
            #expect(abs(full / quarter - 4) < 0.1, "speed 10 over speed 0: \(full / quarter)")
            #expect(abs(halved / full - 0.5) < 0.02)
            #expect(abs(restored / full - 1) < 0.02)
            #expect(lines(render, "parameterSet").first?["value"] as? Double == 10)
            #expect(lines(render, "parameterSet").first?["frame"] as? Int == f(0.3))
            #expect(lines(render, "snapshotStarted").map { $0["frame"] as? Int } == [f(0.6)])
            #expect(lines(render, "snapshotStopped").map { $0["frame"] as? Int } == [f(0.9)])
            #expect(lines(render, "snapshotStopIgnored").map { $0["frame"] as? Int } == [f(1.0)])
            let dropped = lines(render, "cueDropped")
            #expect(dropped.map { $0["reason"] as? String } == ["cooldown"])
            #expect(dropped.first?["frame"] as? Int == f(1.4))
        }

        @Test func aLoopingCueDuringAnInterruptionStartsAtTheEndAndAOneShotIsDropped() throws {
            let tones = try Tones()
            let render = try render(tones, """
                "duration": 2,
                "cues": { "hum": { "variants": ["mid"], "loop": true }, "blip": { "variants": ["high"] } },
                "events": [
                  { "at": 0.2, "do": "interruption.begin", "reason": "call" },
                  { "at": 0.4, "do": "cue", "cue": "hum", "id": "h" },
                  { "at": 0.5, "do": "cue", "cue": "blip" },
                  { "at": 1.0, "do": "interruption.end", "shouldResume": true } ]
                """)
            #expect(render.isExactlySilent(render.frame(0.2)..<render.frame(1.0)))
            #expect(render.rms(render.frame(1.1)..<render.frame(1.5)) > 0.1)
            let played = lines(render, "cuePlayed")
            #expect(played.count == 1)
            #expect(played.first?["frame"] as? Int == render.frame(1.0))
            #expect(played.first?["id"] as? String == "h")
            let deferred = render.log.filter { $0["event"] as? String == "commandDeferred" }
            let dropped = render.log.filter { $0["event"] as? String == "commandDropped" }
            #expect(deferred.map { $0["do"] as? String } == ["cue"])
            #expect(dropped.map { $0["do"] as? String } == ["cue"])
        }

        /// The pinned scenes written in version 2 (the showcase's uses version 3 keys itself).
        static let versionTwoScenes = SceneRenderHashTests.pinned.map(\.scene).filter { $0 != "examples/scenes/showcase.json" }

        @Test("A version 2 scene with every version 3 key at its default renders to its pinned bytes",
              arguments: versionTwoScenes)
        func version3DefaultsRenderAsVersion2(scene: String) throws {
            let expected = try SceneRenderHashTests.pin(of: scene)
            let path = TestPaths.packageRoot.appendingPathComponent(scene)
            var text = try String(contentsOf: path, encoding: .utf8)
            let brace = try #require(text.firstIndex(of: "{"))
            text.replaceSubrange(brace...brace, with: #"{ "seed": 0, "cues": {}, "parameters": {}, "snapshots": {}, "#)
            let parsed = try SceneParser.parse(data: Data(text.utf8), sceneFolder: path.deletingLastPathComponent().path, fileName: scene)
            let folder = try ScratchFolder(prefix: "scene-v3-defaults")
            try SceneRenderer(scene: parsed, sceneName: scene).render(to: folder.path("out.wav"), sampleType: .int16)
            #expect(SHA256Digest.hex(of: try Data(contentsOf: URL(fileURLWithPath: folder.path("out.wav")))) == expected)
        }

        @Test(arguments: [
            #""cues": { "c": { "variants": [] } }, "events": []"#,
            #""cues": { "c": { "variants": ["nothing"] } }, "events": []"#,
            #""cues": { "c": { "variants": ["low"], "order": "backwards" } }, "events": []"#,
            #""cues": { "c": { "variants": ["low"], "steal": "newest" } }, "events": []"#,
            #""cues": { "c": { "variants": ["low"], "gain": [1, 0.5] } }, "events": []"#,
            #""cues": { "c": { "variants": ["low"], "gain": [-1, 0.5] } }, "events": []"#,
            #""cues": { "c": { "variants": ["low"], "pitch": [0, 1] } }, "events": []"#,
            #""cues": { "c": { "variants": ["low"], "pitch": [1, 2, 3] } }, "events": []"#,
            #""cues": { "c": { "variants": ["low"], "maxVoices": -1 } }, "events": []"#,
            #""cues": { "c": { "variants": ["low"], "maxVoices": 1.5 } }, "events": []"#,
            #""cues": { "c": { "variants": ["low"], "cooldown": -0.1 } }, "events": []"#,
            #""cues": { "c": { "variants": ["low"], "loudness": -80 } }, "events": []"#,
            #""cues": { "c": { "variants": ["low"], "loudness": 3 } }, "events": []"#,
            #""parameters": { "p": { "min": 0, "max": 1 } }, "cues": { "c": { "variants": ["low"], "curves": { "volume": { "parameter": "p", "points": [[0, 1]] } } } }, "events": []"#,
            #""cues": { "c": { "variants": ["low"], "curves": { "gain": { "parameter": "p", "points": [[0, 1]] } } } }, "events": []"#,
            #""parameters": { "p": { "min": 0, "max": 1 } }, "cues": { "c": { "variants": ["low"], "curves": { "gain": { "parameter": "p", "points": [] } } } }, "events": []"#,
            #""parameters": { "p": { "min": 0, "max": 1 } }, "cues": { "c": { "variants": ["low"], "curves": { "gain": { "parameter": "p", "points": [[0, 1], [0, 2]] } } } }, "events": []"#,
            #""parameters": { "p": { "min": 1, "max": 1 } }, "events": []"#,
            #""parameters": { "p": { "min": 0, "max": 1, "default": 2 } }, "events": []"#,
            #""events": [{ "at": 0, "do": "cue", "cue": "nothing" }]"#,
            #""events": [{ "at": 0, "do": "parameter", "name": "nothing", "value": 0 }]"#,
            #""parameters": { "p": { "min": 0, "max": 1 } }, "events": [{ "at": 0, "do": "parameter", "name": "p", "value": 2 }]"#,
            #""events": [{ "at": 0, "do": "snapshot.start", "name": "nothing" }]"#,
            #""events": [{ "at": 0, "do": "snapshot.stop", "name": "nothing" }]"#,
            #""snapshots": { "s": { "groups": { "sfx": { "gain": 1, "pan": 0 } } } }, "events": []"#,
            #""snapshots": { "s": { "groups": { "sfx": { "gain": -1 } } } }, "events": []"#,
            #""snapshots": { "s": { "groups": { "sfx": { "lowpass": 1.5 } } } }, "events": []"#,
            #""seed": -1, "events": []"#,
            #""seed": 1.5, "events": []"#,
        ])
        func badVersion3ScenesAreRefusedNamingTheFault(body: String) throws {
            let tones = try Tones()
            do {
                _ = try SceneParser.parse(data: Data("{ \"duration\": 1, \"sounds\": { \(tones.sounds) }, \(body) }".utf8),
                                          sceneFolder: tones.directory.path, fileName: "v3.json")
                Issue.record("parsed: \(body)")
            } catch let error as InterludeError {
                #expect(error.code == .badScene)
                #expect(error.message.hasPrefix("v3.json: "))
                #expect(!error.message.contains("\n"))
                let named = ["cue \"c\"", "parameter \"p\"", "snapshot \"s\"", "event 0", "\"seed\""].contains { error.message.contains($0) }
                #expect(named, "\(error.message)")
            }
        }
    }
}
