import Foundation
import Testing
@_spi(Tools) @testable import Interlude

extension EngineSuites {
    /// Tracks of stems through the loopback device: stems stay on one frame through whatever
    /// moves the soundtrack, heard as a stem and its negated copy cancelling to exact silence.
    @Suite struct StemTrackTests {
        static let rate = StreamTone.sampleRate

        /// A 1 s stereo stem whose frames all differ (two tones that share no period within it),
        /// its negated twin, and a 440 Hz stem, written to `folder`.
        static func twinTrack(_ folder: StreamFixtureFolder, frameCount: Int = rate,
                              tempo: MusicTempo? = MusicTempo(bpm: 120)) throws -> MusicTrack {
            let lead = zip(StreamTone.stereo(331, amplitude: 0.3, frameCount: frameCount),
                           StreamTone.stereo(997, amplitude: 0.3, frameCount: frameCount)).map { $0 + $1 }
            let melody = StreamTone.stereo(440, amplitude: 0.4, frameCount: frameCount)
            return MusicTrack(name: "twins",
                              stems: [.init(name: "lead", path: try folder.writeWAV("lead.wav", lead)),
                                      .init(name: "negated", path: try folder.writeWAV("negated.wav", lead.map { -$0 })),
                                      .init(name: "melody", path: try folder.writeWAV("melody.wav", melody))],
                              tempo: tempo, gains: ["melody": 0])
        }

        static func isExactlySilent(_ samples: [Float]) -> Bool { samples.allSatisfy { $0 == 0 } }

        @Test func twinStemsCancelThroughPauseInterruptionLossAndLoops() throws {
            let folder = try StreamFixtureFolder()
            let engine = try SoundEngine.streamTestEngine()
            let music = try engine.playMusic(Self.twinTrack(folder))
            // 1.7 s crosses a loop and many buffer boundaries.
            #expect(Self.isExactlySilent(try engine.render(frameCount: Self.rate * 17 / 10)), "before anything")
            try engine.pause(music)
            _ = try engine.render(frameCount: 3_000)
            try engine.resume(music)
            #expect(Self.isExactlySilent(try engine.render(frameCount: Self.rate / 2)), "after a pause")
            try engine.beginInterruption(reason: .other)
            #expect(Self.isExactlySilent(try engine.render(frameCount: 4_000)), "during an interruption")
            try engine.endInterruption(shouldResume: true)
            #expect(Self.isExactlySilent(try engine.render(frameCount: Self.rate / 2)), "after an interruption")
            engine.disconnectDevice()
            _ = try engine.render(frameCount: 2_000)
            try engine.reconnectDevice()
            #expect(Self.isExactlySilent(try engine.render(frameCount: Self.rate)), "after a device rebuild")
            // The twins are really playing: without the negated one, the lead is heard.
            try engine.setGain(0, ofStem: "negated", of: music)
            let lead = try engine.render(frameCount: Self.rate / 4)
            #expect(StreamMeasure.rms(lead, frames: 0..<(Self.rate / 4)) > 0.2)
            // A stem at gain 0 kept its place: back at 1, the twins cancel again once OpenAL's
            // gain ramp (its de-click, within 5 ms) has reached the new gain.
            try engine.setGain(1, ofStem: "negated", of: music)
            _ = try engine.render(frameCount: Self.rate / 200)
            #expect(Self.isExactlySilent(try engine.render(frameCount: Self.rate / 2)), "after the negated stem came back")
        }

        @Test func aStemFadesInAlongItsGainWhileTheOthersHoldTheirs() throws {
            let folder = try StreamFixtureFolder()
            let engine = try SoundEngine.streamTestEngine()
            let music = try engine.playMusic(Self.twinTrack(folder))
            #expect(Self.isExactlySilent(try engine.render(frameCount: Self.rate / 10)))
            try engine.setGain(1, ofStem: "melody", of: music, fadeSeconds: 1)
            let rendered = try engine.render(frameCount: Self.rate * 3 / 2)
            // Halfway through the fade the melody is at half its level; after it, at its full 0.4.
            let full = Float(0.4 / 2.0.squareRoot())
            let middle = StreamMeasure.rms(rendered, frames: (Self.rate * 45 / 100)..<(Self.rate * 55 / 100))
            #expect(abs(middle - full / 2) < 0.03, "halfway: \(middle)")
            let after = StreamMeasure.rms(rendered, frames: (Self.rate * 11 / 10)..<(Self.rate * 3 / 2))
            #expect(abs(after - full) < 0.01, "after: \(after)")
            #expect(abs(StreamMeasure.frequency(rendered, frames: (Self.rate * 11 / 10)..<(Self.rate * 3 / 2)) - 440) < 5)
            #expect(engine.gain(ofStem: "melody", of: music) == 1)
            #expect(engine.stemNames(of: music) == ["lead", "negated", "melody"])
        }

        @Test func positionInBarsAndBeatsFollowsTheTempo() throws {
            let folder = try StreamFixtureFolder()
            let engine = try SoundEngine.streamTestEngine()
            // 120 bpm, 2 beats a bar, first beat at 0.1 s: beat k at 0.1 + 0.5 k s.
            let music = try engine.playMusic(Self.twinTrack(folder, frameCount: 2 * Self.rate,
                                                            tempo: MusicTempo(bpm: 120, beatsPerBar: 2, firstBeatSeconds: 0.1)))
            #expect(engine.musicPosition(of: music) == nil, "before the first beat")
            _ = try engine.render(frameCount: Self.rate * 6 / 10)
            #expect(engine.musicPosition(of: music) == MusicPosition(bar: 1, beat: 2, frame: Self.rate * 6 / 10))
            _ = try engine.render(frameCount: Self.rate / 2)
            #expect(engine.musicPosition(of: music) == MusicPosition(bar: 2, beat: 1, frame: Self.rate * 11 / 10))
        }

        @Test func badTracksNameTheTrackAndTheStem() throws {
            let folder = try StreamFixtureFolder()
            let engine = try SoundEngine.streamTestEngine()
            var track = try Self.twinTrack(folder)
            let short = try folder.writeWAV("short.wav", StreamTone.stereo(440, frameCount: Self.rate / 2))
            track.stems.append(.init(name: "short", path: short))
            Self.expectError(containing: ["twins", "short", "one length"]) { try engine.playMusic(track) }
            track = try Self.twinTrack(folder)
            track.tempo = MusicTempo(bpm: 0)
            Self.expectError(containing: ["twins", "bpm"]) { try engine.playMusic(track) }
            track.tempo = MusicTempo(bpm: 120, firstBeatSeconds: 1.5)
            Self.expectError(containing: ["twins", "firstBeat"]) { try engine.playMusic(track) }
            track = try Self.twinTrack(folder)
            Self.expectError(containing: ["twins", "drums"]) { try engine.playMusic(track, gains: ["drums": 1]) }
            Self.expectError(containing: ["twins", "lead", "gain"]) { try engine.playMusic(track, gains: ["lead": -1]) }
            track.stems[1].path = folder.path("missing.wav")
            Self.expectError(containing: ["twins", "negated", "missing.wav"]) { try engine.playMusic(track) }
            #expect(engine.music() == nil, "no bad track started")
            let music = try engine.playMusic(Self.twinTrack(folder))
            Self.expectError(containing: ["twins", "drums"]) { try engine.setGain(1, ofStem: "drums", of: music) }
            #expect(engine.gain(ofStem: "melody", of: music) == 0, "a refused change changes nothing")
        }

        static func expectError(containing parts: [String], sourceLocation: SourceLocation = #_sourceLocation,
                                _ body: () throws -> Void) {
            do {
                try body()
                Issue.record("no error", sourceLocation: sourceLocation)
            } catch let error as InterludeError {
                for part in parts where !error.message.contains(part) {
                    Issue.record("\"\(error.message)\" does not name \(part)", sourceLocation: sourceLocation)
                }
            } catch {
                Issue.record("\(error)", sourceLocation: sourceLocation)
            }
        }
    }
}

extension EngineSuites.StemTrackTests {
    /// A stem whose reads stall while the others play on (a slow disk under one file): the
    /// loopback played as a device plays, an interval mixed and then an update that does not
    /// wait for decoding. The stem runs dry; the others are paused and moved back to its frame,
    /// and once it has audio again they start together: in step, the twins cancelling. Without
    /// the realignment the dry stem would never start alone again, and the positions part.
    @Test func aStemThatRunsDryRealignsTheOthersOnItsFrame() throws {
        let folder = try StreamFixtureFolder()
        let lead = zip(StreamTone.stereo(331, amplitude: 0.3, frameCount: 6 * Self.rate),
                       StreamTone.stereo(997, amplitude: 0.3, frameCount: 6 * Self.rate)).map { $0 + $1 }
        let leadPath = try folder.writeWAV("lead.wav", lead)
        let negatedPath = try folder.writeWAV("negated.wav", lead.map { -$0 })
        // Its reads stop once a second of it is read, for a second of the test's wall clock.
        let stalled = try GatedDecoder(path: negatedPath, closesAfterFrames: Self.rate, reopensAfterSeconds: 1)
        let engine = try SoundEngine.streamTestEngine()
        defer { engine.shutdown() }
        try engine.withCore("test") { core in
            _ = try core.streams.play(stems: [TrackStem(name: "lead", path: leadPath, decoder: try DecoderFactory.open(path: leadPath), gain: 1),
                                              TrackStem(name: "negated", path: negatedPath, decoder: stalled, gain: 1)],
                                      trackName: "twins", channel: .music, isLooping: false, gain: 1, fadeInSeconds: 0,
                                      loopRegion: nil, crossfadeSeconds: nil, call: "test")
        }
        var heard: [Float] = []
        for _ in 0..<400 {
            heard += engine.renderWithoutUpdates(frameCount: 480)
            engine.update()
        }
        #expect(stalled.blockedReadCount > 0, "the stem's reads never stalled")
        // The stem ran dry where its last chunk ended, inside a mix: the lead sounds alone
        // from there to the end of that mix (an update interval at most, 480 frames), when the
        // update that found it realigned them; from 1.20 each end also fades over a 64-frame
        // de-click ramp. Silence between. (The loop below plays faster than the decode thread
        // reads, so both stems' reads fall behind now and then.)
        let sounding = stride(from: 0, to: heard.count, by: 2).filter { heard[$0] != 0 || heard[$0 + 1] != 0 }.map { $0 / 2 }
        var runs: [ClosedRange<Int>] = []
        for frame in sounding {
            if let last = runs.last, last.upperBound + 1 == frame { runs[runs.count - 1] = last.lowerBound...frame } else { runs.append(frame...frame) }
        }
        #expect(runs.allSatisfy { $0.count <= 480 + OpenALStack.deClickFrames }, "out of step: \(runs.prefix(5)) (\(OpenALStack.name))")
        try engine.pause(try #require(engine.music()))
        let positions = engine.readCore { $0.streams.stream(on: .music)?.stemQueues.map(\.positionInFrames) } ?? []
        #expect(positions.count == 2 && positions[0] == positions[1], "stems at \(positions)")
        #expect((positions.first ?? 0) > Self.rate, "it played on past the stall")
    }
}
