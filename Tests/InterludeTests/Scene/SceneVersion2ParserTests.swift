import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

/// The version-2 keys the parser reads on its own: `resampler` at the top level, `loopStart` and
/// `loopEnd` on the music actions (their fit to the track is checked at load, in LoopRegionTests).
@Suite struct SceneVersion2ParserTests {
    static func parse(_ json: String) throws -> Scene {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-v2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("RIFF".utf8).write(to: folder.appendingPathComponent("theme.ogg"))
        return try SceneParser.parse(data: Data(json.utf8), sceneFolder: folder.path, fileName: "v2.json")
    }

    static func scene(top: String = "", event: String) -> String {
        #"{ \#(top) "duration": 2, "sounds": { "theme": "theme.ogg" }, "events": [ { "at": 0, \#(event) } ] }"#
    }

    @Test(arguments: Resampler.allCases)
    func resamplerNamesParse(_ resampler: Resampler) throws {
        #expect(try Self.parse(Self.scene(top: #""resampler": "\#(resampler.rawValue)","#, event: #""do": "music.stop""#)).resampler == resampler)
    }

    @Test func noResamplerLeavesTheEngineDefault() throws {
        #expect(try Self.parse(Self.scene(event: #""do": "music.stop""#)).resampler == nil)
    }

    @Test(arguments: [#""sinc""#, #""Linear""#, "3", "null"])
    func otherResamplersAreABadScene(_ value: String) throws {
        let error = try #require(throws: InterludeError.self) {
            try Self.parse(Self.scene(top: #""resampler": \#(value),"#, event: #""do": "music.stop""#))
        }
        #expect(error.code == .badScene)
        #expect(error.message.hasPrefix("v2.json"))
        #expect(error.message.contains("resampler"))
    }

    @Test func loopPointsParseOnBothMusicActions() throws {
        let play = try Self.parse(Self.scene(event: #""do": "music.play", "sound": "theme", "loopStart": 0.5, "loopEnd": 1.5"#))
        #expect(play.events[0].action == .musicPlay(sound: "theme", loop: true, gain: 1, fadeInSeconds: 0,
                                                    loopPoints: SceneLoopPoints(startSeconds: 0.5, endSeconds: 1.5)))
        let crossfade = try Self.parse(Self.scene(event: #""do": "music.crossfade", "sound": "theme", "duration": 1, "loopEnd": 1.5"#))
        #expect(crossfade.events[0].action == .musicCrossfade(sound: "theme", durationSeconds: 1, loop: true,
                                                              loopPoints: SceneLoopPoints(startSeconds: nil, endSeconds: 1.5)))
        #expect(crossfade.events[0].action.logFields.map(\.key) == ["sound", "duration", "loop", "loopEnd"])
    }

    @Test(arguments: [
        #""loopStart": 1.5, "loopEnd": 0.5"#, #""loopStart": 1, "loopEnd": 1"#, #""loopStart": -1"#, #""loopEnd": "1""#,
    ])
    func badLoopPointsAreABadSceneNamingTheEvent(_ fields: String) throws {
        let error = try #require(throws: InterludeError.self) {
            try Self.parse(Self.scene(event: #""do": "music.play", "sound": "theme", \#(fields)"#))
        }
        #expect(error.code == .badScene)
        #expect(error.message.hasPrefix("v2.json: event 0"), "\(error.message)")
    }

    @Test func loopPointsRoundToTheTracksRate() throws {
        let points = SceneLoopPoints(startSeconds: 0.5, endSeconds: nil)
        #expect(try points.region(sampleRate: 44_100, frameCount: 88_200, taggedRegion: nil) == 22_050..<88_200)
        #expect(try points.region(sampleRate: 44_100, frameCount: 88_200, taggedRegion: 100..<50_000) == 22_050..<50_000)
        let endOnly = SceneLoopPoints(startSeconds: nil, endSeconds: 1.0)
        #expect(try endOnly.region(sampleRate: 48_000, frameCount: 96_000, taggedRegion: 1_000..<2_000) == 1_000..<48_000)
        #expect(throws: InterludeError.self) {
            try endOnly.region(sampleRate: 48_000, frameCount: 96_000, taggedRegion: 50_000..<60_000)
        }
    }

    /// The contract's bounds hold in seconds, before any rounding: `loopEnd` a microsecond past
    /// a 1 s track is a bad scene, and a loop shorter than half a frame keeps one frame.
    @Test func loopBoundsAreCheckedInSeconds() throws {
        let pastTheEnd = try #require(throws: InterludeError.self) {
            try SceneLoopPoints(startSeconds: nil, endSeconds: 1.000001).region(sampleRate: 48_000, frameCount: 48_000, taggedRegion: nil)
        }
        #expect(pastTheEnd.code == .badScene && pastTheEnd.message.contains("past the end"), "\(pastTheEnd.message)")
        #expect(try SceneLoopPoints(startSeconds: nil, endSeconds: 1.0).region(sampleRate: 48_000, frameCount: 48_000, taggedRegion: nil) == 0..<48_000)
        #expect(try SceneLoopPoints(startSeconds: 0.5, endSeconds: 0.50001).region(sampleRate: 48_000, frameCount: 48_000, taggedRegion: nil) == 24_000..<24_001)
        #expect(try SceneLoopPoints(startSeconds: 0.99999, endSeconds: 1.0).region(sampleRate: 48_000, frameCount: 48_000, taggedRegion: nil) == 47_999..<48_000)
        #expect(throws: InterludeError.self) {
            try SceneLoopPoints(startSeconds: 0.5, endSeconds: 0.5).region(sampleRate: 48_000, frameCount: 48_000, taggedRegion: nil)
        }
    }
}
