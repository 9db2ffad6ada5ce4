import Foundation
import Testing
@_spi(Tools) @testable import Interlude
@testable import InterludeScene

extension EngineSuites {
    /// Voices streamed from their files (`play(streamFrom:)`), rendered offline: what is heard
    /// against the file's own samples, positions, virtual voices, device loss, interruptions.
    @Suite struct StreamedVoiceTests {
        /// A stereo track with a different sine on each channel, at frequencies whose joint
        /// period is far longer than the track, so any stretch of it is found at one frame only.
        static func track(frameCount: Int) -> [Float] {
            StreamTone.sine(frequencies: [311, 437.3], frameCount: frameCount)
        }

        /// The offset in `trackFrames` (around `expectedFrame`) where `rendered`, from its frame
        /// `renderedFrame`, best matches the track, and the largest difference there.
        static func bestMatch(_ rendered: [Float], from renderedFrame: Int, _ track: [Float], around expectedFrame: Int,
                              window: Int, frameCount: Int) -> (trackFrame: Int, difference: Float) {
            var best = (trackFrame: -1, difference: Float.infinity)
            let trackFrames = track.count / 2
            for trackFrame in max(0, expectedFrame - window)...min(trackFrames - frameCount, expectedFrame + window) {
                let difference = StreamMeasure.maximumDifference(rendered, from: renderedFrame, track, from: trackFrame,
                                                                 frameCount: frameCount)
                if difference < best.difference { best = (trackFrame, difference) }
            }
            return best
        }

        static func looping(_ position: Vector3? = nil) -> VoiceParameters {
            var parameters = VoiceParameters(position: position)
            parameters.isLooping = true
            return parameters
        }

        /// A 4 s track, written as a WAV in `folder`, streamed as an unplaced looping voice.
        static func playLoopingTrack(in folder: StreamFixtureFolder, on engine: SoundEngine) throws -> (track: [Float], voice: VoiceHandle) {
            let track = Self.track(frameCount: 4 * 48_000)
            let path = try folder.writeWAV("track.wav", track)
            return (track, try engine.play(streamFrom: path, parameters: Self.looping()))
        }

        @Test func aPositionalStreamSoundsTheSameAsTheLoadedFile() throws {
            let folder = try StreamFixtureFolder()
            let frameCount = 48_000
            var samples = [Float](repeating: 0, count: 2 * frameCount)
            let left = TestEngine.sineSamples(frequency: 500, frameCount: frameCount)
            for frame in 0..<frameCount { samples[2 * frame] = left[frame] }
            let path = try folder.writeWAV("left.wav", samples)
            let parameters = Self.looping(Vector3(4, 0, 0))
            // Past the loop seam: the stream runs on across it as the loaded sound's buffer does.
            let renderFrames = 72_000

            let loadedEngine = try TestEngine.offline()
            defer { loadedEngine.shutdown() }
            try loadedEngine.play(try loadedEngine.loadSound(path: path), parameters: parameters)
            let loaded = try loadedEngine.render(frameCount: renderFrames)

            let streamedEngine = try TestEngine.offline()
            defer { streamedEngine.shutdown() }
            let voice = try streamedEngine.play(streamFrom: path, parameters: parameters)
            let streamed = try streamedEngine.render(frameCount: renderFrames)

            let difference = StreamMeasure.maximumDifference(streamed, from: 0, loaded, from: 0, frameCount: renderFrames)
            #expect(difference < 1e-4, "streamed against loaded: largest difference \(difference)")
            let frames = 4_800..<renderFrames
            let leftLevel = StreamMeasure.rms(streamed, channel: 0, frames: frames)
            let rightLevel = StreamMeasure.rms(streamed, channel: 1, frames: frames)
            #expect(rightLevel > 0.01 && rightLevel >= 4 * leftLevel, "placed on the right: left \(leftLevel), right \(rightLevel)")
            let frequency = StreamMeasure.frequency(streamed, channel: 1, frames: frames)
            #expect(abs(frequency - 500) < 2, "\(frequency) Hz")
            #expect(streamedEngine.isPlaying(voice))
            let position = try #require(streamedEngine.positionInFrames(of: voice))
            #expect(position == renderFrames - frameCount, "the position wraps with the loop: \(position)")
            #expect(streamedEngine.statistics.internalErrorCount == 0)
        }

        @Test func aVirtualStreamAdvancesWithoutDecodingAndComesBackAtItsFrame() throws {
            let folder = try StreamFixtureFolder()
            let track = Self.track(frameCount: 6 * 48_000)
            let path = try folder.writeWAV("track.wav", track)
            let engine = try TestEngine.offline { $0.realVoiceBudget = 1 }
            defer { engine.shutdown() }
            let streamed = try engine.play(streamFrom: path, parameters: Self.looping())
            _ = try engine.render(frameCount: 24_000)
            #expect(engine.isReal(streamed))

            var important = Self.looping()
            important.priority = 100
            let other = try engine.play(try TestEngine.sine(engine, frequency: 1_000), parameters: important)
            #expect(!engine.isReal(streamed), "the one real source went to the more important voice")
            let decodedAtDemotion = engine.readCore { $0.voiceTable.voice(for: streamed)!.stream!.decodeFrame }
            let virtualStart = try #require(engine.positionInFrames(of: streamed))
            _ = try engine.render(frameCount: 96_000)
            #expect(!engine.isReal(streamed))
            let virtualEnd = try #require(engine.positionInFrames(of: streamed))
            #expect(abs(virtualEnd - virtualStart - 96_000) <= 480, "virtual time ran on: \(virtualStart) to \(virtualEnd)")
            let (decodedLater, chunkFrames, slots) = engine.readCore { core in
                let stream = core.voiceTable.voice(for: streamed)!.stream!
                return (stream.decodeFrame, stream.maximumFramesInFlight / 8, 4)
            }
            // At most the ring's free slots are filled after the demotion, not the 96 000 frames skipped.
            #expect(decodedLater - decodedAtDemotion <= slots * chunkFrames, "decoded \(decodedLater - decodedAtDemotion) frames while virtual")

            try engine.stop(other)
            let resumeFrame = try #require(engine.positionInFrames(of: streamed))
            let rendered = try engine.render(frameCount: 24_000)
            #expect(engine.isReal(streamed))
            // It gets its source back at the render's first update, within one update of the stop.
            let match = Self.bestMatch(rendered, from: 960, Self.track(frameCount: 6 * 48_000), around: resumeFrame + 960,
                                       window: 960, frameCount: 12_000)
            #expect(match.difference < 1e-4, "no stretch of the track matches: \(match)")
            #expect(abs(match.trackFrame - (resumeFrame + 960)) <= 480, "came back at \(match.trackFrame - 960), virtual clock said \(resumeFrame)")
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test func aOneShotStreamEndsAndIsReleased() throws {
            let folder = try StreamFixtureFolder()
            let path = try folder.writeWAV("short.wav", TestEngine.sineSamples(frequency: 600, frameCount: 24_000), channelCount: 1)
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let baseline = engine.statistics
            let voice = try engine.play(streamFrom: path, parameters: VoiceParameters(position: Vector3(0, 0, -1)))
            let rendered = try engine.render(frameCount: 48_000)
            #expect(!engine.isPlaying(voice))
            #expect(engine.positionInFrames(of: voice) == nil, "its handle is stale")
            #expect(engine.statistics.voiceCount == 0)
            #expect(engine.statistics.alBufferCount == baseline.alBufferCount, "its buffers were deleted")
            #expect(StreamMeasure.rms(rendered, channel: 0, frames: 2_400..<21_600) > 0.1)
            // Exact silence after its end (from 1.20 but for the mixer's de-click fade).
            #expect(OpenALStack.isSilent(rendered, channelCount: 2, after: 24_000), "exact silence after its end, \(OpenALStack.name)")
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test func aStreamResumesAtItsFrameAfterADeviceLoss() throws {
            let folder = try StreamFixtureFolder()
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let (track, voice) = try Self.playLoopingTrack(in: folder, on: engine)
            let before = try engine.render(frameCount: 30_000)
            #expect(StreamMeasure.maximumDifference(before, from: 0, track, from: 0, frameCount: 30_000) < 1e-4)
            let lostAt = try #require(engine.positionInFrames(of: voice))
            #expect(lostAt == 30_000)
            engine.disconnectDevice()
            #expect(try engine.render(frameCount: 4_800).allSatisfy { $0 == 0 }, "silence while the device is gone")
            try engine.reconnectDevice()
            let after = try engine.render(frameCount: 24_000)
            let difference = StreamMeasure.maximumDifference(after, from: 0, track, from: lostAt, frameCount: 24_000)
            #expect(difference < 1e-4, "the new device plays on from frame \(lostAt): largest difference \(difference)")
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test func anInterruptionSilencesAStreamExactlyAndItResumesOnItsFrame() throws {
            let folder = try StreamFixtureFolder()
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let (track, voice) = try Self.playLoopingTrack(in: folder, on: engine)
            _ = try engine.render(frameCount: 20_000)
            try engine.beginInterruption()
            let heldAt = try #require(engine.positionInFrames(of: voice))
            #expect(heldAt == 20_000)
            #expect(try engine.render(frameCount: 9_600).allSatisfy { $0 == 0 }, "exact silence while interrupted")
            try engine.endInterruption(shouldResume: true)
            let after = try engine.render(frameCount: 24_000)
            // On its frame: 1.19 at full level; from 1.20 the first 64 frames fade in.
            let difference = StreamMeasure.maximumDifference(after, from: 0, track, from: heldAt, frameCount: 24_000, gain: OpenALStack.resumeGain)
            #expect(difference < 1e-4, "resumed on frame \(heldAt): largest difference \(difference)")
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test(arguments: Codec.allCases)
        func eachCompressedFormatStreamsAsAPositionalVoice(codec: Codec) throws {
            let fixture = try CodecFixture()
            let tone = StreamTone.stereo(750, frameCount: 2 * CodecFixture.sampleRate).map { Int16($0 * 32767) }
            let path = try fixture.encode(codec, tone, channelCount: 2, name: "voice")
            try Self.expectPlacedLikeTheLoadedFile(path, frequency: 750, label: "\(codec)")
        }

        @Test func wavAndVorbisStreamAsPositionalVoices() throws {
            let folder = try StreamFixtureFolder()
            let wav = try folder.writeWAV("voice.wav", StreamTone.stereo(750, frameCount: 96_000), sampleType: .int16)
            try Self.expectPlacedLikeTheLoadedFile(wav, frequency: 750, label: "WAV")
            try Self.expectPlacedLikeTheLoadedFile(try folder.encodeOgg(wavPath: wav, name: "voice.ogg"), frequency: 750, label: "Vorbis")
        }

        /// Streams `path` placed to the right and loads it placed the same: the same levels per
        /// channel and the same frequency.
        static func expectPlacedLikeTheLoadedFile(_ path: String, frequency: Double, label: String) throws {
            let parameters = VoiceParameters(position: Vector3(2, 0, -1))
            let frames = 4_800..<48_000
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let voice = try engine.play(streamFrom: path, parameters: parameters)
            let streamed = try engine.render(frameCount: 48_000)
            try engine.stop(voice)
            try engine.play(try engine.loadSound(path: path), parameters: parameters)
            let loaded = try engine.render(frameCount: 48_000)
            for channel in 0..<2 {
                let streamedLevel = StreamMeasure.rms(streamed, channel: channel, frames: frames)
                let loadedLevel = StreamMeasure.rms(loaded, channel: channel, frames: frames)
                // The far (left) channel is quiet: compared to the loaded file's within 1% of the near one's level.
                #expect(abs(streamedLevel - loadedLevel) < 0.01 * max(loadedLevel, 0.1),
                        "\(label) channel \(channel): streamed \(streamedLevel), loaded \(loadedLevel)")
            }
            let (left, right) = (StreamMeasure.rms(streamed, channel: 0, frames: frames), StreamMeasure.rms(streamed, channel: 1, frames: frames))
            #expect(right > 0.1 && right > 1.5 * left, "\(label): placed on the right (left \(left), right \(right))")
            let measured = StreamMeasure.frequency(streamed, channel: 1, frames: frames)
            #expect(abs(measured - frequency) < 2, "\(label): \(measured) Hz")
            #expect(engine.statistics.internalErrorCount == 0, "\(label)")
        }

        @Test func groupsAndFadesApplyToAStream() throws {
            let folder = try StreamFixtureFolder()
            let path = try folder.writeWAV("tone.wav", StreamTone.stereo(500, frameCount: 96_000))
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            var parameters = Self.looping(Vector3(0, 0, -1))
            parameters.group = .sfx
            let voice = try engine.play(streamFrom: path, parameters: parameters)
            let full = StreamMeasure.rms(try engine.render(frameCount: 9_600), channel: 0, frames: 2_400..<9_600)
            try engine.setGain(0.5, of: .sfx)
            let halved = StreamMeasure.rms(try engine.render(frameCount: 9_600), channel: 0, frames: 2_400..<9_600)
            #expect(abs(halved / full - 0.5) < 0.02, "group at 0.5: \(halved) against \(full)")
            try engine.stop(voice, fadeSeconds: 0.1)
            let rendered = try engine.render(frameCount: 9_600)
            #expect(!engine.isPlaying(voice), "the fade-out stopped it")
            #expect(rendered[(2 * 7_200)...].allSatisfy { $0 == 0 })
            #expect(engine.statistics.voiceCount == 0)
        }

        @Test func aLoopingStreamPlaysItsIntroOnceThenItsTaggedLoopGaplessly() throws {
            let folder = try StreamFixtureFolder()
            let track = LoopSignal.track(frameCount: 3 * 48_000)
            let path = try folder.writeWAV("tagged.wav", track)
            try folder.appendSampleLoop(toWAV: path, startFrame: 24_000, lastFrame: 71_999)
            let loop = 24_000..<72_000
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let voice = try engine.play(streamFrom: path, parameters: Self.looping())
            let frameCount = 4 * 48_000
            let rendered = try engine.render(frameCount: frameCount)
            let expected = LoopSignal.expected(track, loop: loop, frameCount: frameCount)
            let difference = StreamMeasure.maximumDifference(rendered, from: 0, expected, from: 0, frameCount: frameCount)
            #expect(difference < 1e-4, "intro then loop: largest difference \(difference)")
            #expect(engine.positionInFrames(of: voice) == LoopSignal.position(after: frameCount, loop: loop))
        }

        /// A game's own decoder whose reads stall: the updates never wait for it, the voice runs
        /// dry after the frames decoded ahead, and plays on from the next frame when reads return.
        @Test func aStalledDecoderRunsTheVoiceDryAndItPlaysOnFromTheNextFrame() throws {
            let folder = try StreamFixtureFolder()
            let track = StreamDecodeWorkerTests.liftedTone(frameCount: 6 * 48_000)
            let path = try folder.writeWAV("tone.wav", track)
            let decoder = try GatedDecoder(path: path)
            let engine = try TestEngine.offline()
            defer {
                decoder.open()
                engine.shutdown()
            }
            let voice = try engine.play(streamFrom: decoder)
            let aheadFrames = engine.readCore { $0.voiceTable.voice(for: voice)!.stream!.maximumFramesInFlight }
            try StreamDecodeWorkerTests.waitUntil("the ring is full") {
                engine.readCore { $0.voiceTable.voice(for: voice)?.stream?.decodeFrame } == aheadFrames
            }
            decoder.close()
            let stalled = StreamDecodeWorkerTests.playRealTime(engine, updates: 200)
            try StreamDecodeWorkerTests.waitUntil("a read waits at the gate") { decoder.blockedReadCount > 0 }
            // The decoded frames, then silence (from 1.20 but for the mixer's de-click fade).
            let lastHeard = try #require((0..<(stalled.count / 2)).last { StreamDecodeWorkerTests.isAudible(stalled, frame: $0) })
            if OpenALStack.deClickFrames == 0 {
                #expect(lastHeard + 1 == aheadFrames, "ran dry after \(lastHeard + 1) frames, not the \(aheadFrames) decoded")
            }
            #expect(StreamMeasure.maximumDifference(stalled, from: 0, track, from: 0, frameCount: aheadFrames) < 1e-6)
            #expect(OpenALStack.isSilent(stalled, channelCount: 2, after: aheadFrames), "sound after the voice ran dry, \(OpenALStack.name)")
            #expect(engine.isPlaying(voice), "an underrun does not end the voice")
            #expect(engine.positionInFrames(of: voice) == aheadFrames)

            decoder.open()
            var resumed: [Float] = []
            let deadline = ContinuousClock.now + .seconds(30)
            while !(0..<(resumed.count / 2)).contains(where: { StreamDecodeWorkerTests.isAudible(resumed, frame: $0) }) {
                guard ContinuousClock.now < deadline else { throw TestFailure("the voice never played on") }
                resumed += StreamDecodeWorkerTests.playRealTime(engine, updates: 1)
                Thread.sleep(forTimeInterval: 0.001)
            }
            // A little more, within the first chunk queued after the stall.
            resumed += StreamDecodeWorkerTests.playRealTime(engine, updates: 4)
            let firstHeard = try #require((0..<(resumed.count / 2)).first { StreamDecodeWorkerTests.isAudible(resumed, frame: $0) })
            let heardFrames = resumed.count / 2 - firstHeard
            let difference = StreamMeasure.maximumDifference(resumed, from: firstHeard, track, from: aheadFrames, frameCount: heardFrames)
            #expect(difference < 1e-6, "after the stall the voice differs from the track at frame \(aheadFrames) by \(difference)")
        }

        @Test func aLowPassDullsAStreamedVoice() throws {
            let folder = try StreamFixtureFolder()
            let path = try folder.writeWAV("bright.wav", TestEngine.sineSamples(frequency: 8_000, frameCount: 48_000), channelCount: 1)
            var levels: [Float] = []
            for lowPass: Float in [1, 0.1] {
                let engine = try TestEngine.offline()
                defer { engine.shutdown() }
                var parameters = Self.looping(Vector3(0, 0, -1))
                parameters.lowPassGainHF = lowPass
                try engine.play(streamFrom: path, parameters: parameters)
                levels.append(StreamMeasure.rms(try engine.render(frameCount: 24_000), channel: 0, frames: 4_800..<24_000))
            }
            #expect(levels[0] > 0.1 && levels[1] < 0.5 * levels[0], "8 kHz level without and with the low-pass: \(levels)")
        }

        @Test func aPausedStreamIsSilentAndResumesOnItsFrame() throws {
            let folder = try StreamFixtureFolder()
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let (track, voice) = try Self.playLoopingTrack(in: folder, on: engine)
            _ = try engine.render(frameCount: 12_000)
            try engine.pause(voice)
            let pausedAt = try #require(engine.positionInFrames(of: voice))
            #expect(pausedAt == 12_000)
            // 1.19 cuts at the pause; from 1.20 the voice's next 64 frames fade out, then exact
            // silence, and a resume fades in over 64 (OpenALStack.pauseGain, resumeGain).
            let ramp = OpenALStack.deClickFrames
            let paused = try engine.render(frameCount: 9_600)
            #expect(StreamMeasure.maximumDifference(paused, from: 0, track, from: pausedAt, frameCount: ramp, gain: OpenALStack.pauseGain) < 1e-4,
                    "the pause's fade is not the track's own frames, \(OpenALStack.name)")
            #expect(paused[(2 * ramp)...].allSatisfy { $0 == 0 }, "exact silence while paused")
            #expect(engine.positionInFrames(of: voice) == pausedAt)
            try engine.resume(voice)
            let after = try engine.render(frameCount: 12_000)
            let difference = StreamMeasure.maximumDifference(after, from: 0, track, from: pausedAt, frameCount: 12_000, gain: OpenALStack.resumeGain)
            #expect(difference < 1e-4, "resumed on frame \(pausedAt): largest difference \(difference)")
        }

        @Test func tooManyStreamsIsATypedErrorNamingTheCall() throws {
            let folder = try StreamFixtureFolder()
            let path = try folder.writeWAV("tone.wav", StreamTone.stereo(500, frameCount: 48_000))
            let engine = try TestEngine.offline { $0.maximumStreamedVoiceCount = 2 }
            defer { engine.shutdown() }
            let first = try engine.play(streamFrom: path, parameters: Self.looping())
            try engine.play(streamFrom: path, parameters: Self.looping())
            let error = try #require(throws: InterludeError.self) { try engine.play(streamFrom: path, parameters: Self.looping()) }
            #expect(error.code == .tooManyVoices)
            #expect(error.message.contains("play(streamFrom: \(path))") && error.message.contains("maximumStreamedVoiceCount"), "\(error.message)")
            #expect(engine.statistics.voiceCount == 2)
            try engine.stop(first)
            try engine.play(streamFrom: path, parameters: Self.looping())
            #expect(engine.statistics.voiceCount == 2)
        }

        @Test(arguments: [(48_000, 2, true), (48_000, 2, false), (192_000, 2, false), (8_000, 1, true)])
        func thePCMInFlightPerStreamStaysWithinTheBound(sampleRate: Int, channelCount: Int, isPositional: Bool) throws {
            let folder = try StreamFixtureFolder()
            let path = folder.path("tone.wav")
            let samples = StreamTone.sine(frequencies: Array(repeating: 440, count: channelCount), frameCount: sampleRate)
            try WAVFileWriter.write(samples: samples, format: AudioFormat(sampleRate: sampleRate, channelCount: channelCount),
                                    sampleType: .float32, to: path)
            for bound in [256 * 1024, 64 * 1024] {
                let engine = try TestEngine.offline { $0.streamedVoiceMaximumBytesInFlight = bound }
                defer { engine.shutdown() }
                let voice = try engine.play(streamFrom: path, parameters: Self.looping(isPositional ? Vector3(0, 0, -1) : nil))
                let rendered = try engine.render(frameCount: 24_000)
                let bytes = try #require(engine.streamedVoiceBytesInFlight(of: voice))
                #expect(bytes <= bound && bytes > 0, "\(bytes) bytes in flight against \(bound)")
                #expect(StreamMeasure.rms(rendered, channel: 0, frames: 4_800..<24_000) > 0.1, "it plays")
                #expect(engine.statistics.internalErrorCount == 0)
            }
        }

        @Test func aMissingOrCorruptFileIsATypedErrorNamingIt() throws {
            let folder = try StreamFixtureFolder()
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let missing = folder.path("missing.ogg")
            let notFound = try #require(throws: InterludeError.self) { try engine.play(streamFrom: missing) }
            #expect(notFound.code == .fileNotFound && notFound.message.contains(missing), "\(notFound)")
            let corrupt = folder.path("corrupt.ogg")
            try Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 37) }).write(to: URL(fileURLWithPath: corrupt))
            let bad = try #require(throws: InterludeError.self) { try engine.play(streamFrom: corrupt) }
            #expect(bad.message.contains(corrupt), "\(bad)")
            #expect(engine.statistics.voiceCount == 0)
            #expect(engine.statistics.internalErrorCount == 0)
        }
    }
}
