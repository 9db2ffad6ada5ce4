import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

/// Scene version 3's loudness and limiter keys: what the parser takes and refuses, and what a
/// render of them sounds like and logs (musicNormalized; musicDamageSkipped for every scene).
@Suite struct SceneVersion3LoudnessParserTests {
    static func parse(_ json: String) throws -> Scene {
        let folder = try ScratchFolder(prefix: "interlude-v3")
        try Data("RIFF".utf8).write(to: URL(fileURLWithPath: folder.path("theme.ogg")))
        return try SceneParser.parse(data: Data(json.utf8), sceneFolder: folder.directory.path, fileName: "v3.json")
    }

    static func scene(top: String = "", events: String) -> String {
        #"{ \#(top) "duration": 2, "sounds": { "theme": "theme.ogg" }, "events": [ \#(events) ] }"#
    }

    @Test func loudnessAndLimiterParse() throws {
        let scene = try Self.parse(Self.scene(top: #""limiter": true,"#, events: """
            { "at": 0, "do": "music.play", "sound": "theme", "loudness": -16 },
            { "at": 1, "do": "music.crossfade", "sound": "theme", "duration": 0.5, "loudness": -70 }
            """))
        #expect(scene.limiter)
        #expect(scene.events[0].action == .musicPlay(sound: "theme", loop: true, gain: 1, fadeInSeconds: 0, loudnessLUFS: -16))
        #expect(scene.events[1].action == .musicCrossfade(sound: "theme", durationSeconds: 0.5, loop: true, loudnessLUFS: -70))
        #expect(JSONValue.object(scene.events[0].action.logFields).jsonText
                == #"{"sound":"theme","loop":true,"gain":1,"fadeIn":0,"loudness":-16}"#)
    }

    @Test func withoutVersion3KeysNothingChanges() throws {
        let scene = try Self.parse(Self.scene(events: #"{ "at": 0, "do": "music.play", "sound": "theme" }"#))
        #expect(!scene.limiter)
        #expect(scene.events[0].action == .musicPlay(sound: "theme", loop: true, gain: 1, fadeInSeconds: 0))
    }

    @Test("A loudness outside -70...0 is a bad scene naming the file and the event",
          arguments: ["-70.5", "0.5", #""-16""#, "null", "[-16]"])
    func badLoudness(_ value: String) throws {
        for action in [#""do": "music.play", "sound": "theme""#, #""do": "music.crossfade", "sound": "theme", "duration": 1"#] {
            let error = try #require(throws: InterludeError.self) {
                try Self.parse(Self.scene(events: #"{ "at": 0, "do": "music.stop" }, { "at": 0, \#(action), "loudness": \#(value) }"#))
            }
            #expect(error.code == .badScene)
            #expect(error.message.hasPrefix("v3.json: event 1 ("), "\(error.message)")
            #expect(error.message.contains("\"loudness\""))
        }
    }

    @Test("A limiter that is not a boolean is a bad scene naming the file", arguments: [#""yes""#, "1", "null"])
    func badLimiter(_ value: String) throws {
        let error = try #require(throws: InterludeError.self) {
            try Self.parse(Self.scene(top: #""limiter": \#(value),"#, events: #"{ "at": 0, "do": "music.stop" }"#))
        }
        #expect(error.code == .badScene)
        #expect(error.message.hasPrefix("v3.json: \"limiter\" must be true or false"), "\(error.message)")
    }
}

extension EngineSuites {
    @Suite struct SceneVersion3LoudnessRenderTests {
        static let rate = StreamTone.sampleRate

        /// Renders `json` (written beside `folder`'s files) as float, returning the output and the log's lines.
        static func render(_ json: String, in folder: ScratchFolder) throws -> (output: [Float], log: [[String: Any]]) {
            let scenePath = folder.path("scene.json")
            try Data(json.utf8).write(to: URL(fileURLWithPath: scenePath))
            var output: [Float] = []
            let result = try SceneRenderer(scene: try SceneParser.parse(fileAt: scenePath), sceneName: scenePath)
                .render(output: { output.append(contentsOf: $0) })
            let log = try result.logLines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            return (output, log)
        }

        @Test func aTrackWithALoudnessTargetRendersAtItAndLogsItsNormalization() throws {
            let folder = try StreamFixtureFolder()
            let track = try LoudnessTargetTests.encodedTone(folder, amplitude: 0.05, channelCount: 2, name: "quiet")
            let measured = try Loudness.measure(path: track)
            let (output, log) = try Self.render("""
                { "duration": 6.5, "sounds": { "theme": "\(track)" },
                  "events": [ { "at": 0.5, "do": "music.play", "sound": "theme", "loop": false, "loudness": -16 } ] }
                """, in: folder)
            let played = Array(output[(Self.rate / 2 * 2)...])
            let heard = try Loudness.measure(samples: played, format: AudioFormat(sampleRate: Self.rate, channelCount: 2))
            #expect(abs(heard.integratedLUFS - -16) <= 0.5, "rendered \(heard.integratedLUFS) LUFS")
            let normalized = try #require(log.first { $0["event"] as? String == "musicNormalized" })
            #expect(normalized["frame"] as? Int == Self.rate / 2)
            let measuredLUFS = try #require(normalized["measuredLUFS"] as? Double)
            let gainDecibels = try #require(normalized["gainDecibels"] as? Double)
            #expect(abs(measuredLUFS - measured.integratedLUFS) < 0.01)
            #expect(abs(gainDecibels - (-16 - measured.integratedLUFS)) < 0.01)
            #expect(log.firstIndex { $0["event"] as? String == "music.play" }! < log.firstIndex { $0["event"] as? String == "musicNormalized" }!)
        }

        @Test func aTrackStartedDuringAnInterruptionLogsItsNormalizationWhenItStarts() throws {
            let folder = try StreamFixtureFolder()
            let track = try LoudnessTargetTests.encodedTone(folder, amplitude: 0.3, channelCount: 2, name: "tone")
            let (_, log) = try Self.render("""
                { "duration": 2, "sounds": { "theme": "\(track)" },
                  "events": [ { "at": 0.2, "do": "interruption.begin" },
                              { "at": 0.5, "do": "music.play", "sound": "theme", "loudness": -20 },
                              { "at": 1.0, "do": "interruption.end", "shouldResume": true } ] }
                """, in: folder)
            let normalized = log.filter { $0["event"] as? String == "musicNormalized" }
            #expect(normalized.count == 1)
            #expect(normalized.first?["frame"] as? Int == Self.rate)
        }

        @Test func theLimiterKeyKeepsALoudSceneAtFullScale() throws {
            let folder = try StreamFixtureFolder()
            let wav = try folder.writeWAV("loud.wav", StreamTone.stereo(440, amplitude: 0.9, frameCount: Self.rate))
            let plays = (0..<6).map { _ in #"{ "at": 0, "do": "play", "sound": "loud", "loop": true, "gain": 1 }"# }.joined(separator: ", ")
            func scene(limiter: String) -> String {
                #"{ "duration": 1, \#(limiter) "sounds": { "loud": "\#(wav)" }, "events": [ \#(plays) ] }"#
            }
            let limited = try Self.render(scene(limiter: #""limiter": true,"#), in: folder).output
            let plain = try Self.render(scene(limiter: ""), in: folder).output
            #expect((limited.map { abs($0) }.max() ?? 0) <= 1.0)
            #expect((plain.map { abs($0) }.max() ?? 0) > 1.5)
        }

        @Test func damageTheSoundtrackStepsOverIsLoggedWhereItPlays() throws {
            let folder = try StreamFixtureFolder()
            let files = try DamageFixture.files(folder, fileExtension: "ogg") { wav, output in
                try StreamProcess.run("/usr/bin/oggenc", ["-Q", "-q", "4", "-o", output, wav])
            }
            let (output, log) = try Self.render("""
                { "duration": 6.5, "sounds": { "theme": "\(files.damaged)" },
                  "events": [ { "at": 0.5, "do": "music.play", "sound": "theme", "loop": false } ] }
                """, in: folder)
            let damage = try #require(log.first { $0["event"] as? String == "musicDamageSkipped" })
            let startFrame = try #require(damage["startFrame"] as? Int)
            let skippedFrames = try #require(damage["skippedFrames"] as? Int)
            let frame = try #require(damage["frame"] as? Int)
            #expect(skippedFrames > 0)
            #expect(abs(frame - (Self.rate / 2 + startFrame)) <= 1, "logged at \(frame), played at \(Self.rate / 2 + startFrame)")
            // What was heard there: the silence the decoder read in place of the damage, within
            // the read that met it (the event's start frame is where that read began), and none
            // before.
            func silentFrames(_ frames: Range<Int>) -> Int { frames.filter { output[2 * $0] == 0 && output[2 * $0 + 1] == 0 }.count }
            #expect(silentFrames(frame..<(frame + skippedFrames + Self.rate / 5)) >= skippedFrames)
            #expect(silentFrames((Self.rate / 2)..<frame) == 0)
            // The log stays in frame order.
            let frames = log.compactMap { $0["frame"] as? Int }
            #expect(frames == frames.sorted())
        }
    }
}
