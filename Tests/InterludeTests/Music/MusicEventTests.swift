import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// The soundtrack's own events, on the loopback device rendered one update at a time: a
    /// track that ends says so in the update after its last frame, and a fade that finishes
    /// (a fade-in, a crossfade) in the update the mix reaches its gain.
    @Suite struct MusicEventTests {
        static let rate = StreamTone.sampleRate
        /// One update of the default interval: what each render below mixes.
        static let updateFrames = UpdateRender.updateFrames

        /// Renders `updates` updates, one per call: the samples and each update's music events.
        static func renderByUpdate(_ engine: SoundEngine, _ log: SessionEventLog, updates: Int) throws -> (samples: [Float], events: [[MusicEvent]]) {
            let run = try UpdateRender.byUpdate(engine, log, updates: updates)
            return (run.samples, run.events.map { $0.compactMap { if case .music(let event) = $0 { event } else { nil } } })
        }

        @Test("a track that does not loop raises ended once, with its frame count, in the update after its last frame is mixed; silence follows")
        func endedOnTheUpdateAfterTheLastFrame() throws {
            let folder = try StreamFixtureFolder()
            let length = Self.rate / 2 + 123
            let track = StreamTone.stereo(997, frameCount: length)
            let path = try folder.writeWAV("short.wav", track)
            let engine = try SoundEngine.streamTestEngine()
            let log = SessionEventLog()
            engine.setEventHandler { [log] event in log.append(event) }
            let music = try engine.playMusic(path: path, isLooping: false)
            let (samples, events) = try Self.renderByUpdate(engine, log, updates: 80)

            // What the player hears: the track whole, then silence (1.20+: after the mixer's de-click tail).
            #expect(StreamMeasure.maximumDifference(samples, from: 0, track, from: 0, frameCount: length) <= 1e-6)
            #expect(OpenALStack.isSilent(samples, channelCount: 2, after: length), "sound after the track's last frame")
            let ends = events.enumerated().flatMap { update, raised in
                raised.compactMap { if case .ended(let handle, let frame) = $0 { (update, handle, frame) } else { nil } }
            }
            try #require(ends.count == 1, "ended \(ends.count) times: \(events.filter { !$0.isEmpty })")
            #expect(ends[0].1 == music)
            #expect(ends[0].2 == length)
            // The update that raised it began after the last frame was mixed, within one update of it.
            let updateStart = ends[0].0 * Self.updateFrames
            #expect(updateStart >= length && updateStart < length + Self.updateFrames,
                    "raised by the update from frame \(updateStart); the track's last frame is \(length - 1)")
            #expect(engine.music() == nil)
            engine.shutdown()
        }

        @Test("a looping track never raises ended")
        func aLoopingTrackDoesNotEnd() throws {
            let folder = try StreamFixtureFolder()
            let path = try folder.writeWAV("loop.wav", StreamTone.stereo(480, frameCount: Self.rate / 4))
            let engine = try SoundEngine.streamTestEngine()
            let log = SessionEventLog()
            engine.setEventHandler { [log] event in log.append(event) }
            try engine.playMusic(path: path, isLooping: true)
            let (samples, events) = try Self.renderByUpdate(engine, log, updates: 100)
            let raised = events.flatMap { $0 }
            #expect(raised.isEmpty, "\(raised)")
            #expect(StreamMeasure.rms(samples, frames: (Self.rate * 9 / 10)..<Self.rate) > 0.3)
            engine.shutdown()
        }

        @Test("a fade-in raises fadeFinished in the update the track reaches its gain: below it before, at it from then on")
        func fadeInFinishes() throws {
            let folder = try StreamFixtureFolder()
            let track = StreamTone.stereo(480, frameCount: Self.rate)
            let path = try folder.writeWAV("tone.wav", track)
            let engine = try SoundEngine.streamTestEngine()
            let log = SessionEventLog()
            engine.setEventHandler { [log] event in log.append(event) }
            let music = try engine.playMusic(path: path, isLooping: true, fadeSeconds: 0.1)
            let (samples, events) = try Self.renderByUpdate(engine, log, updates: 30)
            let finished = events.indices.filter { events[$0].contains(.fadeFinished(music)) }
            try #require(finished.count == 1, "\(events.filter { !$0.isEmpty })")
            let update = finished[0]
            // 0.1 s is ten updates of 10 ms, summed in floating point: the fade is finished by the
            // tenth update or, a hair short of 0.1 s there, the eleventh.
            #expect(update >= 10 && update <= 11, "finished in update \(update)")
            let full = StreamMeasure.rms(track, frames: 0..<Self.updateFrames)
            let before = StreamMeasure.rms(samples, frames: ((update - 2) * Self.updateFrames)..<((update - 1) * Self.updateFrames))
            #expect(before < full * 0.99, "update \(update - 2) is at \(before) of \(full): the fade had ended already")
            // From the update after, the track at its gain: sample for sample.
            let next = (update + 1) * Self.updateFrames
            #expect(StreamMeasure.maximumDifference(samples, from: next, track, from: next, frameCount: Self.updateFrames * 5) <= 1e-5)
            engine.shutdown()
        }

        @Test("a crossfade raises fadeFinished for the incoming track when it is done: from then on only the new track sounds")
        func crossfadeFinishes() throws {
            let folder = try StreamFixtureFolder()
            let old = StreamTone.stereo(300, frameCount: Self.rate)
            let new = StreamTone.stereo(1000, frameCount: Self.rate)
            let oldPath = try folder.writeWAV("old.wav", old), newPath = try folder.writeWAV("new.wav", new)
            let engine = try SoundEngine.streamTestEngine()
            let log = SessionEventLog()
            engine.setEventHandler { [log] event in log.append(event) }
            let first = try engine.playMusic(path: oldPath, isLooping: true)
            _ = try engine.render(frameCount: Self.updateFrames * 10)
            _ = log.take()
            let second = try engine.crossfadeMusic(toPath: newPath, fadeSeconds: 0.2, isLooping: true)
            let (samples, events) = try Self.renderByUpdate(engine, log, updates: 40)
            let raised = events.flatMap { $0 }
            #expect(!raised.contains(.fadeFinished(first)), "the outgoing track's fade-out is not a finished fade: \(raised)")
            let finished = events.indices.filter { events[$0].contains(.fadeFinished(second)) }
            try #require(finished.count == 1, "\(events.filter { !$0.isEmpty })")
            let update = finished[0]
            // Twenty updates of 10 ms, the first counted from the update before the call.
            #expect(update >= 19 && update <= 21, "finished in update \(update) of a 0.2 s crossfade")
            // Before: the old track still mixed in; after: the new one alone, sample for sample.
            let earlier = ((update - 2) * Self.updateFrames)
            #expect(StreamMeasure.maximumDifference(samples, from: earlier, new, from: earlier, frameCount: Self.updateFrames) > 0.01)
            let next = (update + 1) * Self.updateFrames
            #expect(StreamMeasure.maximumDifference(samples, from: next, new, from: next, frameCount: Self.updateFrames * 5) <= 1e-5)
            engine.shutdown()
        }
    }
}
