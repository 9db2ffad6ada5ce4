import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

extension EngineSuites {
    /// Transitions, stingers and beats in the playing track's own time, through the loopback
    /// device: each lands on its exact output frame, and waits through an interruption.
    @Suite struct MusicTimeTests {
        static let rate = StreamTone.sampleRate
        /// 120 bpm in 4/4 at 48 kHz: a beat every 24,000 frames, a bar every 96,000.
        static let beat = rate / 2

        /// The twins (a stem and its negated copy: exact silence), 4 s, 120 bpm.
        static func twins(_ folder: StreamFixtureFolder, beatEvents: Bool = false) throws -> MusicTrack {
            var track = try StemTrackTests.twinTrack(folder, frameCount: 4 * rate)
            track.stems.removeLast()
            track.gains = [:]
            track.raisesBeatEvents = beatEvents
            return track
        }

        /// A stereo track whose every frame says which it is: frame f holds (f mod 1000 + 1) / 2000
        /// on the left and its negative on the right; direct channels pass it exactly.
        static func counter(_ folder: StreamFixtureFolder, name: String = "counter", tempo: MusicTempo = MusicTempo(bpm: 120))
            throws -> (track: MusicTrack, samples: [Float]) {
            var samples = [Float](repeating: 0, count: 2 * 4 * rate)
            for frame in 0..<(4 * rate) {
                samples[2 * frame] = Float(frame % 1000 + 1) / 2000
                samples[2 * frame + 1] = -samples[2 * frame]
            }
            let path = try folder.writeWAV("\(name).wav", samples)
            return (MusicTrack(name: name, stems: [.init(name: "all", path: path)], tempo: tempo), samples)
        }

        static func firstNonZeroFrame(_ samples: [Float]) -> Int? {
            samples.indices.first { samples[$0] != 0 }.map { $0 / 2 }
        }

        final class Events: @unchecked Sendable {
            private let lock = NSLock()
            private var list: [MusicEvent] = []
            func append(_ event: MusicEvent) { lock.withLock { list.append(event) } }
            var all: [MusicEvent] { lock.withLock { list } }
        }

        static func recording(_ engine: SoundEngine) -> Events {
            let events = Events()
            engine.setEventHandler { if case .music(let event) = $0 { events.append(event) } }
            return events
        }

        @Test func aTransitionOnTheBarCutsOnItsFrameAndEntersAtTheStart() throws {
            let folder = try StreamFixtureFolder()
            let engine = try SoundEngine.streamTestEngine()
            let events = Self.recording(engine)
            try engine.playMusic(Self.twins(folder))
            _ = try engine.render(frameCount: 30_000)
            let (counter, samples) = try Self.counter(folder)
            let next = try #require(try engine.transitionMusic(to: counter, quantize: .bar))
            let rendered = try engine.render(frameCount: 100_000 - 30_000)
            // The twins cancel to the bar at 96,000; the counter's frame 0 is the bar's frame.
            #expect(Self.firstNonZeroFrame(rendered).map { $0 + 30_000 } == Self.beat * 4)
            let atBar = 96_000 - 30_000
            #expect(Array(rendered[2 * atBar..<2 * atBar + 20]) == Array(samples[0..<20]))
            #expect(engine.positionInFrames(of: next) == 4_000)
            let transitioned = events.all.compactMap { event -> (Int, Int?)? in
                if case .transitioned(_, _, _, _, _, let entryFrame, 0, let mixFrame) = event { (entryFrame, mixFrame) } else { nil }
            }
            #expect(transitioned.count == 1 && transitioned.first?.0 == 0 && transitioned.first?.1 == 96_000)
        }

        @Test func aWaitingTransitionWaitsThroughAnInterruptionInMusicTime() throws {
            let folder = try StreamFixtureFolder()
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(Self.twins(folder))
            _ = try engine.render(frameCount: 60_000)
            try engine.transitionMusic(to: Self.counter(folder).track, quantize: .bar)
            _ = try engine.render(frameCount: 10_000)
            try engine.beginInterruption(reason: .other)
            #expect(try engine.render(frameCount: 50_000).allSatisfy { $0 == 0 }, "nothing fires into the silence")
            try engine.endInterruption(shouldResume: true)
            // 70,000 track frames played before it: the bar is 26,000 frames after the end.
            let rendered = try engine.render(frameCount: 30_000)
            #expect(Self.firstNonZeroFrame(rendered) == 26_000)
        }

        @Test func syncEntryComesInOnTheSameBeatOfTheBar() throws {
            let folder = try StreamFixtureFolder()
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(Self.twins(folder))
            _ = try engine.render(frameCount: 30_000)
            // The next beat is beat 3 of bar 1 (frame 48,000): the counter comes in on its own
            // beat 3, which at 90 bpm with its first beat at 0.1 s is 0.1 + 2 x 60 / 90 s.
            let (counter, samples) = try Self.counter(folder, tempo: MusicTempo(bpm: 90, firstBeatSeconds: 0.1))
            try engine.transitionMusic(to: counter, quantize: .beat, entry: .sync)
            let rendered = try engine.render(frameCount: 20_000)
            let entry = Int((Double(Self.rate) * (0.1 + 2 * 60.0 / 90)).rounded())
            let atBeat = 48_000 - 30_000
            #expect(Self.firstNonZeroFrame(rendered) == atBeat)
            #expect(Array(rendered[2 * atBeat..<2 * atBeat + 20]) == Array(samples[2 * entry..<2 * entry + 20]))
        }

        @Test func aStingerLandsOnTheNextBeatAndIsPartOfTheSoundtrack() throws {
            let folder = try StreamFixtureFolder()
            let engine = try SoundEngine.streamTestEngine()
            let events = Self.recording(engine)
            let music = try engine.playMusic(Self.twins(folder))
            let click = try engine.loadSound(path: folder.writeWAV("click.wav", [Float](repeating: 0.3, count: 2 * 48_000)))
            _ = try engine.render(frameCount: 30_000)
            try engine.playStinger(click, quantize: .beat)
            var rendered = try engine.render(frameCount: 30_000)
            #expect(Self.firstNonZeroFrame(rendered) == 48_000 - 30_000)
            // Paused with the soundtrack, and stopped by its stop.
            try engine.pause(music)
            _ = try engine.render(frameCount: 480)
            #expect(try engine.render(frameCount: 4_800).allSatisfy { $0 == 0 })
            try engine.resume(music)
            rendered = try engine.render(frameCount: 4_800)
            #expect(StreamMeasure.rms(rendered, frames: 480..<4_800) > 0.2)
            try engine.stop(music)
            _ = try engine.render(frameCount: 480)
            #expect(try engine.render(frameCount: 4_800).allSatisfy { $0 == 0 })
            #expect(events.all.contains { if case .stingerPlayed(_, _, 48_000) = $0 { true } else { false } })
        }

        @Test func beatsAreRaisedAtTheFramesTheyAreMixedWithBarAndBeat() throws {
            let folder = try StreamFixtureFolder()
            let engine = try SoundEngine.streamTestEngine()
            let events = Self.recording(engine)
            try engine.playMusic(Self.twins(folder, beatEvents: true))
            _ = try engine.render(frameCount: 100_000)
            let beats = events.all.compactMap { event -> (Int?, Int, Int)? in
                if case .beat(_, _, let position, let mixFrame) = event { (mixFrame, position.bar, position.beat) } else { nil }
            }
            #expect(beats.map(\.0) == [0, 24_000, 48_000, 72_000, 96_000])
            #expect(beats.map { "\($0.1).\($0.2)" } == ["1.1", "1.2", "1.3", "1.4", "2.1"])
        }

        @Test func aNewTransitionReplacesAWaitingOneAndTheSameTrackOnlyCancels() throws {
            let folder = try StreamFixtureFolder()
            let engine = try SoundEngine.streamTestEngine()
            let events = Self.recording(engine)
            let twins = try Self.twins(folder)
            try engine.playMusic(twins)
            _ = try engine.render(frameCount: 10_000)
            try engine.transitionMusic(to: Self.counter(folder).track, quantize: .bar)
            #expect(try engine.transitionMusic(to: twins, quantize: .bar) == nil)
            #expect(try engine.render(frameCount: 100_000).allSatisfy { $0 == 0 }, "the replaced transition never happens")
            #expect(events.all.contains(.transitionReplaced(track: "counter")))
            #expect(events.all.contains(.transitionUnchanged(track: "twins")))
        }
    }
}

extension EngineSuites.MusicTimeTests {
    @Test func aSavedStateKeepsTheStemsTheirGainsAndAWaitingTransition() throws {
        let folder = try StreamFixtureFolder()
        let engine = try SoundEngine.streamTestEngine()
        var twins = try EngineSuites.StemTrackTests.twinTrack(folder, frameCount: 4 * Self.rate)
        twins.name = "twins"
        let music = try engine.playMusic(twins)
        try engine.setGain(0, ofStem: "negated", of: music)
        _ = try engine.render(frameCount: 30_000)
        let (counter, samples) = try Self.counter(folder)
        try engine.transitionMusic(to: counter, quantize: .bar)
        let state = try engine.savedState()
        let saved = try #require(state.tracks.first)
        #expect(saved.positionInFrames == 30_000)
        #expect(saved.musicTrack?.gains == ["lead": 1, "negated": 0, "melody": 0])
        #expect(saved.waitingTransition?.track.name == "counter" && saved.waitingTransition?.quantize == .bar)
        engine.shutdown()

        // Another engine, as at the next launch: the stems at their gains from the saved
        // frame, and the counter on the same bar.
        let next = try SoundEngine.streamTestEngine()
        try next.restore(state)
        let rendered = try next.render(frameCount: 70_000)
        let lead = zip(StreamTone.stereo(331, amplitude: 0.3, frameCount: 4 * Self.rate),
                       StreamTone.stereo(997, amplitude: 0.3, frameCount: 4 * Self.rate)).map { $0 + $1 }
        #expect(StreamMeasure.maximumDifference(rendered, from: 0, lead, from: 30_000, frameCount: 60_000) < 1e-6,
                "the lead alone, from the saved frame")
        let atBar = 96_000 - 30_000
        #expect(Array(rendered[2 * atBar..<2 * atBar + 20]) == Array(samples[0..<20]))
    }
}

extension EngineSuites.MusicTimeTests {
    @Test func aTransitionWithAFadeCrossfadesWithEqualPowerFromTheBoundary() throws {
        let folder = try StreamFixtureFolder()
        let engine = try SoundEngine.streamTestEngine()
        try engine.playMusic(Self.twins(folder))
        let steady = try folder.writeWAV("steady.wav", [Float](repeating: 0.4, count: 2 * 4 * Self.rate))
        _ = try engine.render(frameCount: 30_000)
        try engine.transitionMusic(to: MusicTrack(name: "steady", stems: [.init(name: "all", path: steady)], tempo: MusicTempo(bpm: 120)),
                                   quantize: .beat, fadeSeconds: 1)
        // The next beat is at 48,000: the steady track rises along sin(p x pi / 2) from there,
        // while the twins (silent) fall away.
        let rendered = try engine.render(frameCount: 100_000)
        let boundary = 48_000 - 30_000
        #expect(rendered[0..<(2 * boundary)].allSatisfy { $0 == 0 })
        for (seconds, expected) in [(0.25, sin(Double.pi / 8)), (0.5, sin(Double.pi / 4)), (0.75, sin(3 * Double.pi / 8))] {
            let frame = boundary + Int(seconds * Double(Self.rate))
            let heard = Double(rendered[2 * frame]) / 0.4
            // The fade moves in update steps (10 ms) and OpenAL ramps between them.
            #expect(abs(heard - expected) < 0.03, "at \(seconds) s into the fade: \(heard), not \(expected)")
        }
        #expect(abs(Double(rendered[2 * (boundary + Self.rate + 4_800)]) - 0.4) < 1e-6, "after the fade")
    }

    @Test func aPlayOrAStopCancelsAWaitingTransition() throws {
        let folder = try StreamFixtureFolder()
        let engine = try SoundEngine.streamTestEngine()
        let twins = try Self.twins(folder)
        try engine.playMusic(twins)
        _ = try engine.render(frameCount: 10_000)
        try engine.transitionMusic(to: Self.counter(folder).track, quantize: .bar)
        try engine.playMusic(twins)
        #expect(try engine.render(frameCount: 120_000).allSatisfy { $0 == 0 }, "the play cancelled it")
        try engine.transitionMusic(to: Self.counter(folder, name: "again").track, quantize: .bar)
        try engine.stop(try #require(engine.music()))
        #expect(try engine.render(frameCount: 120_000).allSatisfy { $0 == 0 }, "the stop cancelled it")
    }

    @Test func aStingerHeldByAnInterruptionResumesOnTheFrameItStopped() throws {
        let folder = try StreamFixtureFolder()
        let engine = try SoundEngine.streamTestEngine()
        try engine.playMusic(Self.twins(folder))
        // A stinger that says which frame it is at: the counter as a sound.
        let (_, samples) = try Self.counter(folder, name: "ramp")
        let ramp = try engine.loadSound(path: folder.path("ramp.wav"))
        _ = try engine.render(frameCount: 20_000)
        try engine.playStinger(ramp, quantize: .beat)
        _ = try engine.render(frameCount: 4_000 + 10_000)   // the beat at 24,000, then 10,000 frames of it
        try engine.beginInterruption(reason: .other)
        _ = try engine.render(frameCount: 5_000)
        try engine.endInterruption(shouldResume: true)
        let rendered = try engine.render(frameCount: 100)
        // Frame 10,000 of the stinger on the first frame after the call (from 1.20 under the
        // mixer's 64-frame fade-in: OpenALStack.resumeGain).
        let resumed = (0..<100).allSatisfy { frame in
            (0..<2).allSatisfy { channel in
                abs(rendered[2 * frame + channel] - samples[2 * (10_000 + frame) + channel] * OpenALStack.resumeGain(atFrame: frame)) < 1e-6
            }
        }
        #expect(resumed, "not resumed on frame 10,000 of the stinger (\(OpenALStack.name))")
    }
}

extension EngineSuites.MusicTimeTests {
    @Test func stemsStayInStepThroughACrossfadeToAnotherTrackOfStems() throws {
        let folder = try StreamFixtureFolder()
        let engine = try SoundEngine.streamTestEngine()
        try engine.playMusic(Self.twins(folder))
        var other = try Self.twins(folder)
        other.name = "other twins"
        _ = try engine.render(frameCount: 30_000)
        // Both sides of the crossfade are twins: silent only while each track's stems stay in step.
        try engine.transitionMusic(to: other, quantize: .beat, entry: .sync, fadeSeconds: 0.5)
        #expect(try engine.render(frameCount: 80_000).allSatisfy { $0 == 0 })
    }

    @Test func aStingerGivenDuringAnInterruptionWaitsInMusicTime() throws {
        let folder = try StreamFixtureFolder()
        let engine = try SoundEngine.streamTestEngine()
        try engine.playMusic(Self.twins(folder))
        let click = try engine.loadSound(path: folder.writeWAV("click.wav", [Float](repeating: 0.3, count: 2 * 4_800)))
        _ = try engine.render(frameCount: 30_000)
        try engine.beginInterruption(reason: .other)
        try engine.playStinger(click, quantize: .beat)
        #expect(try engine.render(frameCount: 40_000).allSatisfy { $0 == 0 }, "not into the silence")
        try engine.endInterruption(shouldResume: true)
        // The music stood at 30,000: the next beat is 18,000 frames after the end.
        let rendered = try engine.render(frameCount: 30_000)
        #expect(Self.firstNonZeroFrame(rendered) == 18_000)
    }

    /// A 44.1 kHz track on a 48 kHz output: the boundary is where the resampled track really
    /// reaches it, found in a render of the track alone (a step at the bar's frame), within one
    /// output frame.
    @Test func aTransitionOfAResampledTrackLandsWithinAFrameOfItsBoundary() throws {
        let folder = try StreamFixtureFolder()
        let rate = 44_100
        let bar = 2 * rate  // 120 bpm, 4/4
        let marked = (0..<(4 * rate)).flatMap { frame -> [Float] in frame >= bar ? [0.3, 0.3] : [0, 0] }
        let writer = try WAVFileWriter(path: folder.path("marked.wav"), format: AudioFormat(sampleRate: rate, channelCount: 2),
                                       sampleType: .float32)
        try writer.append(marked)
        try writer.finish()
        let track = MusicTrack(name: "marked", stems: [.init(name: "all", path: folder.path("marked.wav"))], tempo: MusicTempo(bpm: 120))
        let steady = try folder.writeWAV("steady.wav", [Float](repeating: -0.6, count: 2 * Self.rate))
        let alone = try SoundEngine.streamTestEngine()
        try alone.playMusic(track)
        let reached = try #require(Self.firstNonZeroFrame(try alone.render(frameCount: 2 * Self.rate + 4_800)))
        let engine = try SoundEngine.streamTestEngine()
        try engine.playMusic(track)
        _ = try engine.render(frameCount: 30_000)
        try engine.transitionMusic(to: MusicTrack(name: "steady", stems: [.init(name: "all", path: steady)], tempo: MusicTempo(bpm: 120)),
                                   quantize: .bar)
        let rendered = try engine.render(frameCount: 2 * Self.rate)
        let landed = try #require(rendered.indices.first { rendered[$0] < 0 }) / 2 + 30_000
        #expect(abs(landed - reached) <= 1, "landed on \(landed), the track reached its bar on \(reached)")
    }
}
