import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

extension EngineSuites {
    /// Streams decoded on the engine's decode thread, with reads that stall: the game's calls
    /// never wait for them, a stream that runs dry plays on from the next frame of its file, and
    /// offline renders hear exactly what they would with reads that never stall.
    @Suite struct StreamDecodeWorkerTests {
        static let rate = StreamTone.sampleRate
        static let exact: Float = 1e-6

        /// A stereo tone lifted off zero, so no frame of it is silent: an underrun's silence is
        /// told apart from the track frame by frame.
        static func liftedTone(frameCount: Int) -> [Float] {
            StreamTone.stereo(331, amplitude: 0.3, frameCount: frameCount).map { $0 + 0.4 }
        }

        static func isAudible(_ samples: [Float], frame: Int) -> Bool {
            samples[2 * frame] != 0 || samples[2 * frame + 1] != 0
        }

        /// Polls `condition` until it holds, for up to 30 s.
        static func waitUntil(_ what: String, _ condition: () -> Bool) throws {
            let deadline = ContinuousClock.now + .seconds(30)
            while !condition() {
                guard ContinuousClock.now < deadline else { throw TestFailure("timed out waiting until \(what)") }
                Thread.sleep(forTimeInterval: 0.002)
            }
        }

        /// The loopback device played "in real time" by the test: one update interval mixed, then
        /// an update, which (unlike a render's) queues only what the decode thread has ready.
        static func playRealTime(_ engine: SoundEngine, updates: Int) -> [Float] {
            var heard: [Float] = []
            heard.reserveCapacity(updates * 480 * 2)
            for _ in 0..<updates {
                heard += engine.renderWithoutUpdates(frameCount: 480)
                engine.update()
            }
            return heard
        }

        /// "Recovers on the exact frame": the source runs dry after the last frame it had, stays
        /// silent while the reads are stalled, and the first frame heard after the silence is the
        /// next frame of the file: none skipped, none played twice.
        @Test func stalledReadsRunDryThenPlayOnFromTheNextFrame() throws {
            let folder = try StreamFixtureFolder()
            let track = Self.liftedTone(frameCount: 8 * Self.rate)
            let path = try folder.writeWAV("tone.wav", track)
            let decoder = try GatedDecoder(path: path)
            let engine = try SoundEngine.streamTestEngine()
            defer {
                decoder.open()
                engine.shutdown()
            }
            let events = SessionEventLog()
            engine.setEventHandler { [events] event in events.append(event) }
            try engine.playMusic(decoder: decoder, isLooping: false)
            // The decode thread fills the ring behind the queue, then idles: 8 x 0.2 s decoded.
            let aheadFrames = engine.readCore { $0.streams.stream(on: .music)!.maximumFramesInFlight }
            try Self.waitUntil("the ring is full") {
                engine.readCore { $0.streams.stream(on: .music)?.decodeFrame } == aheadFrames
            }
            decoder.close()
            // 3 s, more than the 1.6 s decoded: the decode thread's next read waits at the gate,
            // and every update returns meanwhile: none waits for it.
            let stalled = Self.playRealTime(engine, updates: 300)
            try Self.waitUntil("a read waits at the gate") { decoder.blockedReadCount > 0 }
            // The decoded frames, then silence (from 1.20 but for the mixer's de-click fade, see
            // OpenALStack.isSilent).
            let lastHeard = try #require((0..<(stalled.count / 2)).last { Self.isAudible(stalled, frame: $0) })
            let playedFrames = try #require(engine.musicPosition())
            #expect(playedFrames == aheadFrames, "the stream ran dry after \(playedFrames) frames, not the \(aheadFrames) decoded")
            if OpenALStack.deClickFrames == 0 { #expect(lastHeard + 1 == playedFrames) }
            #expect(StreamMeasure.maximumDifference(stalled, from: 0, track, from: 0, frameCount: playedFrames) <= Self.exact)
            #expect(OpenALStack.isSilent(stalled, channelCount: 2, after: playedFrames), "sound after the stream ran dry, \(OpenALStack.name)")
            #expect(engine.readCore { $0.streams.stream(on: .music)?.underrunCount } == 1)

            decoder.open()
            var resumed: [Float] = []
            let deadline = ContinuousClock.now + .seconds(30)
            while !(0..<(resumed.count / 2)).contains(where: { Self.isAudible(resumed, frame: $0) }) {
                guard ContinuousClock.now < deadline else { throw TestFailure("the stream never played on") }
                resumed += Self.playRealTime(engine, updates: 1)
                Thread.sleep(forTimeInterval: 0.001)
            }
            // 0.1 s more: within the first chunk queued after the stall (0.2 s), so what is heard
            // does not depend on how soon the decode thread reads on.
            resumed += Self.playRealTime(engine, updates: 10)
            let firstHeard = try #require((0..<(resumed.count / 2)).first { Self.isAudible(resumed, frame: $0) })
            let heardFrames = resumed.count / 2 - firstHeard
            let difference = StreamMeasure.maximumDifference(resumed, from: firstHeard, track, from: playedFrames, frameCount: heardFrames)
            #expect(difference <= Self.exact, "after the stall the audio differs from the track at frame \(playedFrames) by \(difference)")
            #expect(engine.musicPosition() == playedFrames + heardFrames)
            let raised = events.take().filter {
                switch $0 {
                case .music(.underrun), .music(.recovered): true
                default: false
                }
            }
            #expect(raised == [.music(.underrun(path: path, positionInFrames: playedFrames)),
                               .music(.recovered(path: path, positionInFrames: playedFrames))])
        }

        /// A seek while the decode thread is stalled mid-chunk: the chunk it was reading is
        /// dropped, and playback starts at the sought frame exactly.
        @Test func seekDuringAStalledReadPlaysFromTheSoughtFrame() throws {
            let folder = try StreamFixtureFolder()
            let track = Self.liftedTone(frameCount: 4 * Self.rate)
            let path = try folder.writeWAV("tone.wav", track)
            let decoder = try GatedDecoder(path: path)
            let engine = try SoundEngine.streamTestEngine()
            defer {
                decoder.open()
                engine.shutdown()
            }
            try engine.playMusic(decoder: decoder, isLooping: false)
            decoder.close()
            // Two buffers played: their slots go back to the decode thread, whose read stalls.
            _ = Self.playRealTime(engine, updates: 50)
            try Self.waitUntil("the decode thread's read is stalled") { decoder.blockedReadCount > 0 }
            // Offline, the seek waits for the decode thread to fill the queue from the new frame;
            // the gate opens meanwhile, from another thread.
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { decoder.open() }
            try engine.seek(engine.track(), toFrame: 100_003)
            #expect(engine.musicPosition() == 100_003)
            let rendered = try engine.render(frameCount: Self.rate)
            // The sought frame at full level at once; from 1.20 the old position fades out over
            // the first 64 frames.
            let ramp = OpenALStack.deClickFrames
            #expect(StreamMeasure.fadesOutOverTheRamp(rendered, from: 0, track, from: 100_003))
            #expect(StreamMeasure.maximumDifference(rendered, from: ramp, track, from: 100_003 + ramp, frameCount: Self.rate - ramp) <= Self.exact)
        }

        /// Offline, a render waits for the chunk it needs: with reads that keep stalling, through
        /// a loop seam, a seek and a crossfade, it is bit for bit the render of reads that do not.
        @Test func offlineRenderWithStallingReadsIsBitIdentical() throws {
            let folder = try StreamFixtureFolder()
            var source = StreamTone.sine(frequencies: [330, 495], amplitude: 0.4, frameCount: 3 * Self.rate)
            var noise = SystemRandomNumberGenerator()
            for index in source.indices { source[index] += Float.random(in: -0.05...0.05, using: &noise) }
            let ogg = try folder.encodeOgg(wavPath: try folder.writeWAV("source.wav", source, sampleType: .int16), name: "track.ogg")
            let region = 12_345..<(2 * Self.rate)
            func render(_ start: (SoundEngine) throws -> Void) throws -> [Float] {
                let engine = try SoundEngine.streamTestEngine()
                defer { engine.shutdown() }
                try start(engine)
                var rendered = try engine.render(frameCount: 2 * Self.rate + 777)
                try engine.seek(engine.track(), toFrame: 54_321)
                rendered += try engine.render(frameCount: Self.rate / 2)
                try engine.crossfadeMusic(toPath: ogg, fadeSeconds: 0.5)
                rendered += try engine.render(frameCount: Self.rate)
                return rendered
            }
            let plain = try render { try $0.playMusic(path: ogg, loopRegion: region) }
            let stalling = try render {
                try $0.playMusic(decoder: try GatedDecoder(path: ogg, stallEvery: 4, stallSeconds: 0.01), loopRegion: region)
            }
            #expect(StreamMeasure.rms(plain, frames: 0..<Self.rate) > 0.1)
            #expect(stalling == plain)
        }

        /// An offline render decodes its stream itself, between updates and outside the engine
        /// lock: in steady state the decode thread sleeps, so a render does not pay for a second
        /// thread decoding in parallel. What is heard is the track, frame for frame. (Leftover
        /// wake-ups may let the decode thread read a few chunks: two thirds is the bound, where
        /// the thread alone would read everything.)
        @Test func anOfflineRenderDecodesOnItsOwnThreadBetweenUpdates() throws {
            let folder = try StreamFixtureFolder()
            let track = Self.liftedTone(frameCount: 12 * Self.rate)
            let path = try folder.writeWAV("tone.wav", track)
            let decoder = try ThreadRecordingDecoder(path: path)
            let engine = try SoundEngine.streamTestEngine()
            defer { engine.shutdown() }
            try engine.playMusic(decoder: decoder, isLooping: false)
            decoder.watchCallingThread()
            // 10 s in renders of one update interval each, as a game's offline loop renders.
            var block: [Float] = []
            var heard: [Float] = []
            heard.reserveCapacity(20 * Self.rate)
            for _ in 0..<1_000 {
                try engine.render(frameCount: Self.rate / 100, into: &block)
                heard += block
            }
            let read = decoder.framesRead
            let total = read.onWatchedThread + read.elsewhere
            #expect(total >= 9 * Self.rate, "10 s played, so about as much decoded: \(read)")
            #expect(3 * read.onWatchedThread >= 2 * total, "the render's thread read \(read.onWatchedThread) of \(total) frames")
            #expect(StreamMeasure.maximumDifference(heard, from: 0, track, from: 0, frameCount: 10 * Self.rate) <= Self.exact)
        }

        /// Two threads rendering one offline engine at once: each render is a whole, contiguous
        /// stretch of the timeline, although a render releases the engine lock between update
        /// intervals to decode. (The track is noise, so a block's first frame finds its place.)
        @Test func rendersFromTwoThreadsEachGetContiguousFrames() throws {
            let folder = try StreamFixtureFolder()
            var generator = SystemRandomNumberGenerator()
            let track = (0..<(2 * 12 * Self.rate)).map { _ in Float.random(in: 0.1...0.9, using: &generator) }
            let path = try folder.writeWAV("noise.wav", track)
            let engine = try SoundEngine.streamTestEngine()
            defer { engine.shutdown() }
            try engine.playMusic(path: path, isLooping: false)
            let blocks = AnnotatedMutex<[[Float]]>([])
            let failures = AnnotatedMutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                for _ in 0..<8 {
                    do {
                        let block = try engine.render(frameCount: Self.rate / 2)
                        blocks.withLock { $0.append(block) }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
            let rendered = blocks.withLock { $0 }
            #expect(rendered.count == 16)
            var starts: [Int] = []
            for block in rendered {
                let first = (0..<(track.count / 2)).first { track[2 * $0] == block[0] && track[2 * $0 + 1] == block[1] }
                guard let first else {
                    Issue.record("a block's first frame is nowhere in the track")
                    continue
                }
                starts.append(first)
                let difference = StreamMeasure.maximumDifference(block, from: 0, track, from: first, frameCount: Self.rate / 2)
                #expect(difference <= Self.exact, "the block from frame \(first) is not the track's next frames")
            }
            // Together, the blocks are the first 8 s, each half second once.
            #expect(starts.sorted() == (0..<16).map { $0 * Self.rate / 2 })
        }

        /// A switch to another offline format (the same channel count, another rate) made from
        /// another thread while a long render runs: the render goes on in the format it began
        /// in, and from the switch on, its frames are silence rather than the new device's mix.
        /// The track's reads stop at a gate after 3 s for 2 s, so the render waits there, between
        /// two update intervals with the engine lock released, while the test switches (the
        /// switch itself then waits for the track's next chunk, which the gate's opening lets
        /// the render decode).
        @Test func aSwitchFromAnotherThreadMidRenderSilencesTheRestOfIt() throws {
            let folder = try StreamFixtureFolder()
            let path = try folder.writeWAV("tone.wav", Self.liftedTone(frameCount: 10 * Self.rate))
            let decoder = try GatedDecoder(path: path, closesAfterFrames: 3 * Self.rate, reopensAfterSeconds: 2)
            let engine = try SoundEngine.streamTestEngine()
            defer { engine.shutdown() }
            try engine.playMusic(decoder: decoder, isLooping: false)
            let frameCount = 8 * Self.rate
            let rendered = AnnotatedMutex<Result<[Float], any Error>?>(nil)
            let renderer = Thread {
                rendered.withLock { $0 = Result { try engine.render(frameCount: frameCount) } }
            }
            renderer.start()
            try Self.waitUntil("the render waits at the gate") { decoder.blockedReadCount > 0 }
            let switchedAt = try #require(engine.musicPosition())
            try engine.switchDevice(to: .offline(sampleRate: 44_100, channelCount: 2))
            try Self.waitUntil("the render returned") { rendered.withLock { $0 != nil } }
            let heard = try #require(try rendered.withLock { $0 }?.get())
            #expect(heard.count == 2 * frameCount)
            #expect(switchedAt > Self.rate && switchedAt < 3 * Self.rate, "the render stopped at \(switchedAt)")
            let lastAudible = try #require((0..<frameCount).last { Self.isAudible(heard, frame: $0) })
            // The track played up to the switch (within one update interval), silence after.
            #expect(abs(lastAudible + 1 - switchedAt) <= Self.rate / 100, "last audible \(lastAudible), switched at \(switchedAt)")
            #expect((0...lastAudible).allSatisfy { Self.isAudible(heard, frame: $0) }, "no gap before the switch")
        }

        /// A decoder of the game's own with a format the engine cannot play is refused, naming it.
        @Test func decoderWithAnUnplayableFormatThrowsNamingIt() throws {
            final class SixChannels: AudioDecoder, @unchecked Sendable {
                let path = "generated://six-channels"
                let format = AudioFormat(sampleRate: 48_000, channelCount: 6)
                let frameCount = 48_000
                func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int { 0 }
                func seek(toFrame frame: Int) throws {}
            }
            let engine = try SoundEngine.streamTestEngine()
            let baseline = engine.statistics
            let error = try #require(throws: InterludeError.self) { try engine.playMusic(decoder: SixChannels()) }
            #expect(error.code == .unsupportedFormat)
            #expect(error.message.contains("generated://six-channels"))
            #expect(engine.musicPosition() == nil)
            #expect(engine.statistics.alSourceCount == baseline.alSourceCount)
        }
    }
}
