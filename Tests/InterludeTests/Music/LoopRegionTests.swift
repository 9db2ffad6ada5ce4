import Foundation
import Testing
@_spi(Tools) @testable import Interlude
@testable import InterludeScene

extension EngineSuites {
    /// Loop regions on the soundtrack and on looping voices, from the file's tags or given
    /// explicitly, asserted sample by sample: 48 kHz tracks on a 48 kHz output, so nothing is
    /// resampled and the music comes out as decoded.
    @Suite struct LoopRegionTests {
        static let rate = StreamTone.sampleRate
        /// One 16-bit step.
        static let lsb: Float = 1.0 / 32768
        static let trackFrames = 2 * rate
        static let tagged = 30_000..<70_000

        /// Renders `frameCount` frames of the soundtrack `play` starts, returning the samples and
        /// the position at the end.
        static func render(frameCount: Int, _ play: (SoundEngine) throws -> Void) throws -> (samples: [Float], position: Int?) {
            let engine = try SoundEngine.streamTestEngine()
            try play(engine)
            var samples: [Float] = []
            var positions: [Int?] = []
            // Blocks of 0.25 s: the position is checked as the loop goes round.
            for _ in 0..<(frameCount / (rate / 4)) {
                samples += try engine.render(frameCount: rate / 4)
                positions.append(engine.musicPosition())
            }
            for (index, position) in positions.enumerated() {
                #expect(position == LoopSignal.position(after: (index + 1) * rate / 4, loop: tagged),
                        "after \(index + 1) blocks")
            }
            return (samples, positions.last ?? nil)
        }

        static func expectLoops(_ samples: [Float], track: [Float], loop: Range<Int>) {
            let expected = LoopSignal.expected(track, loop: loop, frameCount: samples.count / 2)
            let difference = StreamMeasure.maximumDifference(samples, from: 0, expected, from: 0, frameCount: samples.count / 2)
            #expect(difference <= lsb, "differs from intro + loop by \(difference)")
        }

        @Test func taggedWAVPlaysItsIntroOnceThenLoopsGaplessly() throws {
            let folder = try StreamFixtureFolder()
            let track = LoopSignal.track(frameCount: Self.trackFrames)
            let path = try folder.writeWAV("tagged.wav", track)
            try folder.appendSampleLoop(toWAV: path, startFrame: UInt32(Self.tagged.lowerBound), lastFrame: UInt32(Self.tagged.upperBound - 1))
            let (samples, _) = try Self.render(frameCount: 4 * Self.rate) { try $0.playMusic(path: path) }
            Self.expectLoops(samples, track: track, loop: Self.tagged)
        }

        @Test func taggedOggPlaysItsIntroOnceThenLoopsGaplessly() throws {
            let folder = try StreamFixtureFolder()
            let wav = try folder.writeWAV("source.wav", LoopSignal.track(frameCount: Self.trackFrames))
            let ogg = try folder.encodeOgg(wavPath: wav, name: "tagged.ogg")
            try folder.tagOgg(ogg, ["LOOPSTART=\(Self.tagged.lowerBound)", "LOOPLENGTH=\(Self.tagged.count)"])
            let decoded = try DecoderFactory.decodeAll(path: ogg)
            #expect(decoded.loopRegion == Self.tagged)
            let (samples, _) = try Self.render(frameCount: 4 * Self.rate) { try $0.playMusic(path: ogg) }
            Self.expectLoops(samples, track: decoded.samples, loop: Self.tagged)
        }

        @Test func anExplicitRegionOverridesTheTags() throws {
            let folder = try StreamFixtureFolder()
            let track = LoopSignal.track(frameCount: Self.trackFrames)
            let path = try folder.writeWAV("tagged.wav", track)
            try folder.appendSampleLoop(toWAV: path, startFrame: 1000, lastFrame: 1999)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: path, loopRegion: Self.tagged)
            let samples = try engine.render(frameCount: 3 * Self.rate)
            Self.expectLoops(samples, track: track, loop: Self.tagged)
            #expect(engine.musicPosition() == LoopSignal.position(after: 3 * Self.rate, loop: Self.tagged))
        }

        @Test func malformedTagsPlayTheWholeTrack() throws {
            let folder = try StreamFixtureFolder()
            let wav = try folder.writeWAV("source.wav", LoopSignal.track(frameCount: Self.trackFrames))
            let ogg = try folder.encodeOgg(wavPath: wav, name: "bad-tags.ogg")
            try folder.tagOgg(ogg, ["LOOPSTART=70000", "LOOPEND=30000"])
            let decoded = try DecoderFactory.decodeAll(path: ogg)
            #expect(decoded.loopRegion == nil)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: ogg)
            let samples = try engine.render(frameCount: 5 * Self.rate)
            Self.expectLoops(samples, track: decoded.samples, loop: 0..<Self.trackFrames)
            #expect(engine.musicPosition() == Self.rate)
        }

        @Test func crossfadeTakesTheNewTracksTags() throws {
            let folder = try StreamFixtureFolder()
            let track = LoopSignal.track(frameCount: Self.trackFrames)
            let path = try folder.writeWAV("tagged.wav", track)
            try folder.appendSampleLoop(toWAV: path, startFrame: UInt32(Self.tagged.lowerBound), lastFrame: UInt32(Self.tagged.upperBound - 1))
            let first = try folder.writeWAV("first.wav", StreamTone.stereo(300, frameCount: Self.rate))
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: first)
            _ = try engine.render(frameCount: Self.rate / 2)
            try engine.crossfadeMusic(toPath: path, fadeSeconds: 0.1)
            _ = try engine.render(frameCount: 3 * Self.rate)
            // Within one update: the new track starts on the update after the call.
            let tagged = try #require(engine.musicPosition())
            #expect(abs(tagged - LoopSignal.position(after: 3 * Self.rate, loop: Self.tagged)) <= 480, "position \(tagged)")
            #expect(Self.tagged.contains(tagged))
            try engine.crossfadeMusic(toPath: path, fadeSeconds: 0.1, loopRegion: 0..<10_000)
            _ = try engine.render(frameCount: Self.rate)
            let explicit = try #require(engine.musicPosition())
            #expect(abs(explicit - LoopSignal.position(after: Self.rate, loop: 0..<10_000)) <= 480, "position \(explicit)")
        }

        @Test func aSceneWithLoopPointsRendersLikeTheAPICall() throws {
            let folder = try StreamFixtureFolder()
            let track = LoopSignal.track(frameCount: Self.trackFrames)
            let path = try folder.writeWAV("theme.wav", track)
            // 0.625 s and 1.4583... s: frames 30000 and 70000 at 48 kHz.
            let json = """
            { "duration": 3, "sounds": { "theme": "theme.wav" },
              "events": [ { "at": 0, "do": "music.play", "sound": "theme", "loopStart": 0.625, "loopEnd": \(70_000.0 / 48_000) } ] }
            """
            let scene = try SceneParser.parse(data: Data(json.utf8), sceneFolder: folder.directory.path, fileName: "loop.json")
            var fromScene: [Float] = []
            _ = try SceneRenderer(scene: scene, sceneName: "loop.json").render(output: { fromScene += $0 })
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: path, loopRegion: Self.tagged)
            let fromAPI = try engine.render(frameCount: 3 * Self.rate)
            #expect(fromScene.count == fromAPI.count)
            #expect(StreamMeasure.maximumDifference(fromScene, from: 0, fromAPI, from: 0, frameCount: 3 * Self.rate) <= Self.lsb)
            Self.expectLoops(fromScene, track: track, loop: Self.tagged)
        }

        @Test func aSceneLoopEndPastTheTrackIsABadSceneNamingTheEvent() throws {
            let folder = try StreamFixtureFolder()
            try folder.writeWAV("theme.wav", LoopSignal.track(frameCount: Self.trackFrames))
            let json = """
            { "duration": 1, "sounds": { "theme": "theme.wav" },
              "events": [ { "at": 0, "do": "music.play", "sound": "theme" },
                          { "at": 0.5, "do": "music.crossfade", "sound": "theme", "duration": 0.1, "loopEnd": 12.0 } ] }
            """
            let scene = try SceneParser.parse(data: Data(json.utf8), sceneFolder: folder.directory.path, fileName: "scene.json")
            let error = try #require(throws: InterludeError.self) {
                _ = try SceneRenderer(scene: scene, sceneName: "scene.json").render(output: { _ in })
            }
            #expect(error.code == .badScene)
            #expect(error.message == "scene.json: event 1 (music.crossfade): loopEnd 12.0 s is past the end of the track (2.0 s)")
        }

        @Test func aLoopingVoiceRepeatsItsSoundsTaggedLoop() throws {
            let folder = try StreamFixtureFolder()
            // 1000 Hz intro for 0.5 s, then a 300 Hz loop of 1 s (a whole number of cycles).
            let intro = StreamTone.sine(frequencies: [1000], frameCount: Self.rate / 2)
            let loop = StreamTone.sine(frequencies: [300], frameCount: Self.rate)
            let path = try folder.writeWAV("voice.wav", intro + loop + intro, channelCount: 1)
            let region = (Self.rate / 2)..<(3 * Self.rate / 2)
            try folder.appendSampleLoop(toWAV: path, startFrame: UInt32(region.lowerBound), lastFrame: UInt32(region.upperBound - 1))
            let engine = try SoundEngine.streamTestEngine()
            let sound = try engine.loadSound(path: path)
            #expect(sound.loopRegion == region)
            let voice = try engine.play(sound, parameters: .init(position: nil, isLooping: true))
            let rendered = try engine.render(frameCount: 4 * Self.rate)
            let introFrequency = StreamMeasure.frequency(rendered, frames: 1000..<(Self.rate / 2 - 1000))
            #expect(abs(introFrequency - 1000) < 5, "intro at \(introFrequency) Hz")
            // After the intro, never the 1000 Hz tail again: only the loop, window after window.
            for start in stride(from: Self.rate / 2 + 1000, to: 4 * Self.rate - Self.rate / 10, by: Self.rate / 10) {
                let frequency = StreamMeasure.frequency(rendered, frames: start..<(start + Self.rate / 10))
                #expect(abs(frequency - 300) < 5, "window at frame \(start): \(frequency) Hz")
            }
            let position = try #require(engine.positionInFrames(of: voice))
            let expected = LoopSignal.position(after: 4 * Self.rate, loop: region)
            #expect(abs(position - expected) <= 512, "position \(position), expected about \(expected)")
            #expect(region.contains(position))
        }
    }
}
