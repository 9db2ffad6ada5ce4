import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

extension EngineSuites {
    /// Scene version 4: tracks of stems, quantized transitions, stingers and beats rendered,
    /// logged and refused as docs/scenes.md says.
    @Suite struct SceneVersion4Tests {
        static let rate = 48_000

        /// Float WAVs, 4 s mono at 48 kHz: `lead` (two tones), `negated` (its negative),
        /// `counter` (frame f holds (f mod 1000 + 1) / 2000), `short` (2 s), `slow` (at 44.1 kHz)
        /// and a 0.05 s `click` of 0.3.
        private final class Sounds: ScratchFolder {
            init() throws {
                try super.init(prefix: "scene-v4")
                let frames = 4 * SceneVersion4Tests.rate
                let lead = (0..<frames).map { frame -> Float in
                    let time = Double(frame) / Double(SceneVersion4Tests.rate)
                    return Float(0.3 * sin(2 * .pi * 331 * time) + 0.2 * sin(2 * .pi * 997 * time))
                }
                try write("lead", lead)
                try write("negated", lead.map { -$0 })
                try write("counter", (0..<frames).map { Float($0 % 1000 + 1) / 2000 })
                try write("short", Array(lead[0..<(frames / 2)]))
                try write("slow", Array(lead[0..<44_100]), rate: 44_100)
                try write("click", [Float](repeating: 0.3, count: 2_400))
            }

            private func write(_ name: String, _ samples: [Float], rate: Int = SceneVersion4Tests.rate) throws {
                let writer = try WAVFileWriter(path: path("\(name).wav"), format: AudioFormat(sampleRate: rate, channelCount: 1),
                                               sampleType: .float32)
                try writer.append(samples)
                try writer.finish()
            }

            var sounds: String {
                ["lead", "negated", "counter", "short", "slow", "click"].map { "\"\($0)\": \"\(path("\($0).wav"))\"" }
                    .joined(separator: ", ")
            }
        }

        private static let tracks = """
            "tracks": {
              "twins": { "stems": { "lead": "lead", "negated": "negated" }, "bpm": 120, "beatEvents": true },
              "count": { "stems": { "all": "counter" }, "bpm": 90, "firstBeat": 0.1, "beatsPerBar": 3 } }
            """

        private func render(_ sounds: Sounds, _ body: String) throws -> SessionSceneRender {
            try SessionSceneRender(json: "{ \"sounds\": { \(sounds.sounds) }, \(Self.tracks), \(body) }")
        }

        private func lines(_ render: SessionSceneRender, _ event: String) -> [[String: Any]] {
            // A played event's line has its action as `event`: no engine line is named so.
            render.log.filter { $0["event"] as? String == event }
        }

        @Test func twinStemsStayInStepThroughInterruptionLossAndLoopsAndATransitionLandsOnTheBar() throws {
            let sounds = try Sounds()
            let render = try render(sounds, """
                "duration": 10, "events": [
                  { "at": 0, "do": "music.play", "track": "twins" },
                  { "at": 1.3, "do": "interruption.begin" }, { "at": 1.9, "do": "interruption.end" },
                  { "at": 2.5, "do": "device.lost" }, { "at": 3.0, "do": "device.restored" },
                  { "at": 3.7, "do": "music.stinger", "sound": "click" },
                  { "at": 4.2, "do": "music.transition", "track": "count", "quantize": "bar" },
                  { "at": 5.5, "do": "music.stem", "stem": "lead", "gain": 0 } ]
                """)
            // Music time: 62,400 frames before the interruption, 28,800 between it and the loss,
            // then from 144,000 on. The next beat after the stinger (track frame 124,800) is
            // 144,000: output 196,800. The next bar after 4.2 s (track 153,600) is the loop's
            // wrap at 192,000: output 244,800.
            let stinger = 196_800, bar = 244_800
            #expect(render.isExactlySilent(0..<stinger), "the twins cancel through all of it")
            // The stinger's 2,400 frames, then silence (1.20 and later hold its last sample to the
            // end of the mix pass and fade it out: OpenALStack.isSilent).
            let afterStinger = Array(render.samples[(2 * stinger)..<(2 * bar)])
            #expect(OpenALStack.isSilent(afterStinger, channelCount: 2, after: 2_400), "\(OpenALStack.name)")
            #expect(!render.isExactlySilent(stinger..<(stinger + 1)))
            #expect(render.isExactlySilent((bar - 1)..<bar) && !render.isExactlySilent(bar..<(bar + 1)))
            #expect(lines(render, "stingerPlayed").map { $0["frame"] as? Int } == [stinger])
            let transitioned = try #require(lines(render, "musicTransitioned").first)
            #expect(transitioned["frame"] as? Int == bar && transitioned["from"] as? String == "twins"
                && transitioned["to"] as? String == "count" && transitioned["quantize"] as? String == "bar")
            let beats = lines(render, "musicBeat")
            #expect(beats.prefix(3).map { $0["frame"] as? Int } == [0, 24_000, 48_000])
            #expect(beats.allSatisfy { $0["track"] as? String == "twins" })
            #expect(lines(render, "musicStemIgnored").first?["stem"] as? String == "lead", "count has no stem lead")
        }

        @Test func transitionsStingersAndStemsAreLoggedAsTheContractSays() throws {
            let sounds = try Sounds()
            let render = try render(sounds, """
                "duration": 4, "events": [
                  { "at": 0, "do": "music.play", "sound": "counter" },
                  { "at": 0.5, "do": "music.transition", "track": "twins", "quantize": "bar" },
                  { "at": 0.6, "do": "music.stem", "stem": "negated", "gain": 0.5, "duration": 0.1 },
                  { "at": 0.7, "do": "music.stinger", "sound": "click", "quantize": "bar" },
                  { "at": 0.8, "do": "music.transition", "track": "count", "quantize": "end" },
                  { "at": 0.9, "do": "music.transition", "track": "twins" },
                  { "at": 1.0, "do": "music.stop" },
                  { "at": 1.1, "do": "music.stinger", "sound": "click" } ]
                """)
            #expect(lines(render, "musicQuantizeUnavailable").map { $0["do"] as? String }
                == ["music.transition", "music.stinger"])
            #expect(lines(render, "musicTransitioned").first?["from"] as? String == "counter")
            #expect(lines(render, "musicStemSet").first?["gain"] as? Double == 0.5)
            #expect(lines(render, "musicTransitionReplaced").first?["to"] as? String == "count")
            #expect(lines(render, "musicTransitionUnchanged").first?["track"] as? String == "twins")
            #expect(lines(render, "stingerCancelled").map { $0["frame"] as? Int } == [48_000], "stopped before its bar")
            #expect(lines(render, "stingerPlayed").map { $0["frame"] as? Int } == [52_800], "nothing plays: at once")
        }

        @Test(arguments: [
            (#""tracks": { "t": { "stems": {}, "bpm": 120 } }"#, "track \"t\""),
            (#""tracks": { "t": { "stems": { "a": "nothing" }, "bpm": 120 } }"#, "nothing"),
            (#""tracks": { "t": { "stems": { "a": "lead" }, "bpm": 0 } }"#, "bpm"),
            (#""tracks": { "t": { "stems": { "a": "lead" }, "bpm": 120, "beatsPerBar": 1.5 } }"#, "beatsPerBar"),
            (#""tracks": { "t": { "stems": { "a": "lead" }, "bpm": 120, "firstBeat": -1 } }"#, "firstBeat"),
            (#""tracks": { "t": { "stems": { "a": "lead" }, "bpm": 120, "gains": { "b": 1 } } }"#, "\"b\""),
            (#""tracks": { "t": { "stems": { "a": "lead" }, "bpm": 120, "gains": { "a": -1 } } }"#, "\"a\""),
            (#""events": [{ "at": 0, "do": "music.play", "track": "twins", "sound": "lead" }]"#, "event 0"),
            (#""events": [{ "at": 0, "do": "music.play", "track": "twins", "loop": false }]"#, "event 0"),
            (#""events": [{ "at": 0, "do": "music.play", "track": "twins", "loopStart": 1 }]"#, "event 0"),
            (#""events": [{ "at": 0, "do": "music.play", "track": "nothing" }]"#, "event 0"),
            (#""events": [{ "at": 0, "do": "music.play", "track": "twins", "gains": { "all": 1 } }]"#, "event 0"),
            (#""events": [{ "at": 0, "do": "music.stem", "stem": "nothing", "gain": 1 }]"#, "event 0"),
            (#""events": [{ "at": 0, "do": "music.stem", "stem": "lead", "gain": -1 }]"#, "event 0"),
            (#""events": [{ "at": 0, "do": "music.transition", "track": "twins", "quantize": "phrase" }]"#, "event 0"),
            (#""events": [{ "at": 0, "do": "music.transition", "track": "twins", "entry": "middle" }]"#, "event 0"),
            (#""events": [{ "at": 0, "do": "music.stinger", "sound": "click", "quantize": "never" }]"#, "event 0"),
        ])
        func badVersion4ScenesAreRefusedNamingTheFault(body: String, named: String) throws {
            let sounds = try Sounds()
            let json = body.hasPrefix("\"tracks\"") ? "\(body), \"events\": []" : "\(Self.tracks), \(body)"
            do {
                _ = try SceneParser.parse(data: Data("{ \"duration\": 1, \"sounds\": { \(sounds.sounds) }, \(json) }".utf8),
                                          sceneFolder: sounds.directory.path, fileName: "v4.json")
                Issue.record("parsed: \(body)")
            } catch let error as InterludeError {
                #expect(error.code == .badScene)
                #expect(error.message.hasPrefix("v4.json: "))
                #expect(!error.message.contains("\n"))
                #expect(error.message.contains(named), "\(error.message)")
            }
        }

        @Test(arguments: [
            (#""t": { "stems": { "a": "lead", "b": "short" }, "bpm": 120 }"#, ["track \"t\"", "stem \"b\"", "length"]),
            (#""t": { "stems": { "a": "lead", "b": "slow" }, "bpm": 120 }"#, ["track \"t\"", "stem \"b\"", "rate"]),
            (#""t": { "stems": { "a": "lead" }, "bpm": 120, "firstBeat": 4 }"#, ["track \"t\"", "firstBeat"]),
        ])
        func stemsThatDoNotFitTogetherAreRefusedWhenOpened(track: String, named: [String]) throws {
            let sounds = try Sounds()
            do {
                _ = try SessionSceneRender(json: """
                    { "duration": 1, "sounds": { \(sounds.sounds) }, "tracks": { \(track) }, "events": [] }
                    """)
                Issue.record("rendered: \(track)")
            } catch let error as InterludeError {
                #expect(error.message.hasPrefix("session-scene.json: "))
                for part in named { #expect(error.message.contains(part), "\(error.message)") }
            }
        }
    }
}

extension EngineSuites.SceneVersion4Tests {
    /// examples/scenes/arcade-score.json, the Arcade's score as docs/arcade-score.svg plots it.
    @Test func theArcadeScoreKeepsItsStemsInStepAndLandsThePickupOnTheBeat() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("examples/scenes/arcade-score.json").path
        let scene = try SceneParser.parse(fileAt: path)
        var samples: [Float] = []
        let result = try SceneRenderer(scene: scene, sceneName: "arcade-score.json").render { samples.append(contentsOf: $0) }
        let log = try result.logLines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        func frames(_ event: String) -> [Int] { log.filter { $0["event"] as? String == event }.compactMap { $0["frame"] as? Int } }
        let beats = Set(frames("musicBeat"))
        let stinger = try #require(frames("stingerPlayed").first)
        #expect(beats.contains(stinger), "the pickup's chime at \(stinger) is on no beat")
        let suspended = log.first { $0["event"] as? String == "musicSuspended" }?["positionInFrames"] as? Int
        #expect(suspended != nil && suspended == log.first { $0["event"] as? String == "musicResumed" }?["positionInFrames"] as? Int)
        let call = scene.frame(ofSeconds: 7.2)..<scene.frame(ofSeconds: 9.0)
        #expect(samples[(2 * call.lowerBound)..<(2 * call.upperBound)].allSatisfy { $0 == 0 }, "the call is silent")
        // The lead alone: silent until it fades in near the fire, heard after.
        var lead: [Float] = []
        _ = try SceneRenderer(scene: scene.soloing(stem: "lead"), sceneName: "arcade-score.json").render { lead.append(contentsOf: $0) }
        #expect(lead[0..<(2 * scene.frame(ofSeconds: 3))].allSatisfy { $0 == 0 })
        #expect(lead[(2 * scene.frame(ofSeconds: 4.5))..<(2 * scene.frame(ofSeconds: 7))].contains { $0 != 0 })
    }
}
