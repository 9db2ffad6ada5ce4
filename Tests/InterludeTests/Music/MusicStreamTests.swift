import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

extension EngineSuites {
    /// The streamed soundtrack through the loopback device: 48 kHz tracks on a 48 kHz output, so
    /// nothing is resampled and stereo music (direct channels, gain 1) comes out sample for sample.
    @Suite struct MusicStreamTests {
        static let rate = StreamTone.sampleRate
        /// Music at gain 1 on direct channels adds nothing but float rounding.
        static let exact: Float = 1e-6

        @Test func continuityAcrossBufferBoundaries() throws {
            let folder = try StreamFixtureFolder()
            let track = StreamTone.stereo(997, frameCount: 3 * Self.rate)
            let path = try folder.writeWAV("tone.wav", track)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: path, isLooping: false)
            // 2.5 s crosses a dozen 0.2 s buffer boundaries and 250 updates.
            let rendered = try engine.render(frameCount: Self.rate * 5 / 2)
            for channel in 0..<2 {
                let trackStep = StreamMeasure.maximumStep(track, channel: channel, frames: 0..<(3 * Self.rate))
                let renderedStep = StreamMeasure.maximumStep(rendered, channel: channel, frames: 0..<(Self.rate * 5 / 2))
                #expect(renderedStep <= trackStep + 1e-5, "channel \(channel): step \(renderedStep) > tone's \(trackStep)")
            }
            #expect(StreamMeasure.rms(rendered, frames: (2 * Self.rate)..<(Self.rate * 5 / 2)) > 0.3)
        }

        @Test func loopSeamIsSampleExactOverThreeLoops() throws {
            let folder = try StreamFixtureFolder()
            // 480 Hz fits exactly 480 cycles in 48000 frames: the last frame joins the first.
            let length = Self.rate
            let track = StreamTone.stereo(480, frameCount: length)
            let path = try folder.writeWAV("loop.wav", track)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: path, isLooping: true)
            let rendered = try engine.render(frameCount: 3 * length)
            for loop in 0..<3 {
                let difference = StreamMeasure.maximumDifference(rendered, from: loop * length, track, from: 0, frameCount: length)
                #expect(difference <= Self.exact, "loop \(loop): differs from the track by \(difference)")
            }
            #expect(engine.musicPosition() == 0)
            let next = try engine.render(frameCount: 1000)
            #expect(StreamMeasure.maximumDifference(next, from: 0, track, from: 0, frameCount: 1000) <= Self.exact)
            #expect(engine.musicPosition() == 1000)
        }

        @Test func introPlaysOnceThenOnlyTheLoopRepeats() throws {
            let folder = try StreamFixtureFolder()
            let intro = StreamTone.stereo(1000, frameCount: Self.rate / 2)
            let loop = StreamTone.stereo(300, frameCount: Self.rate)
            let track = intro + loop
            let path = try folder.writeWAV("intro-loop.wav", track)
            let engine = try SoundEngine.streamTestEngine()
            let introFrames = Self.rate / 2
            try engine.playMusic(path: path, isLooping: true, loopRegion: introFrames..<(introFrames + Self.rate))
            let total = introFrames + 3 * Self.rate
            let rendered = try engine.render(frameCount: total)
            // Frequency over time: 1000 Hz during the intro only, 300 Hz in every 0.1 s window after.
            for window in stride(from: 0, to: total, by: Self.rate / 10) {
                let frequency = StreamMeasure.frequency(rendered, frames: window..<(window + Self.rate / 10))
                let expected: Double = window < introFrames ? 1000 : 300
                #expect(abs(frequency - expected) < 2, "window at frame \(window): \(frequency) Hz, expected \(expected)")
            }
            #expect(StreamMeasure.maximumDifference(rendered, from: 0, track, from: 0, frameCount: introFrames) <= Self.exact)
            for pass in 0..<3 {
                let difference = StreamMeasure.maximumDifference(rendered, from: introFrames + pass * Self.rate, track,
                                                                 from: introFrames, frameCount: Self.rate)
                #expect(difference <= Self.exact, "loop pass \(pass) differs by \(difference)")
            }
            #expect(engine.musicPosition() == introFrames)
        }

        @Test func pauseAndResumeAtTheSameFrame() throws {
            let folder = try StreamFixtureFolder()
            let track = StreamTone.stereo(440, frameCount: 4 * Self.rate)
            let path = try folder.writeWAV("tone.wav", track)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: path, isLooping: false)
            // An odd count: the pause falls between two updates, inside a buffer.
            _ = try engine.render(frameCount: 30_017)
            let before = try #require(engine.musicPosition())
            #expect(before == 30_017)
            try engine.pause(engine.track())
            let paused = try engine.render(frameCount: 9_000)
            // 1.19 cuts to silence; from 1.20 the mixer fades a paused voice's next frames out
            // over 64 frames and fades a resumed one in over 64, on its own frames: every sample
            // is the track's, at the ramp's gain, and exact silence after the fade.
            let ramp = OpenALStack.deClickFrames
            #expect(StreamMeasure.maximumDifference(paused, from: 0, track, from: before, frameCount: ramp, gain: OpenALStack.pauseGain) <= Self.exact,
                    "the pause's fade is not the track's own frames, \(OpenALStack.name)")
            #expect(paused[(2 * ramp)...].allSatisfy { $0 == 0 }, "paused music is not silent, \(OpenALStack.name)")
            #expect(engine.musicPosition() == before)
            try engine.resume(engine.track())
            #expect(engine.musicPosition() == before)
            let resumed = try engine.render(frameCount: 4_800)
            let difference = StreamMeasure.maximumDifference(resumed, from: 0, track, from: before, frameCount: 4_800, gain: OpenALStack.resumeGain)
            #expect(difference <= Self.exact, "resumed audio differs from the track at frame \(before) by \(difference)")
            #expect(engine.musicPosition() == before + 4_800)
        }

        @Test func equalPowerCrossfadeKeepsTheLevel() throws {
            let folder = try StreamFixtureFolder()
            // 400 and 600 Hz: whole cycles in every 10 ms window, and so is their beat, so the
            // window RMS of the mix measures power alone.
            let first = try folder.writeWAV("a.wav", StreamTone.stereo(400, frameCount: 2 * Self.rate))
            let second = try folder.writeWAV("b.wav", StreamTone.stereo(600, frameCount: 2 * Self.rate))
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: first)
            let alone = try engine.render(frameCount: Self.rate / 2)
            let level = StreamMeasure.rms(alone, frames: 0..<(Self.rate / 2))
            try engine.crossfadeMusic(toPath: second, fadeSeconds: 1)
            let during = try engine.render(frameCount: Self.rate * 3 / 2)
            let window = Self.rate / 100
            var worst: Float = 0
            for start in stride(from: 0, to: Self.rate * 3 / 2, by: window) {
                let decibels = StreamMeasure.decibels(StreamMeasure.rms(during, frames: start..<(start + window)) / level)
                worst = max(worst, abs(decibels))
            }
            #expect(worst <= 1.5, "combined level strays \(worst) dB from either track alone")
            // After the fade only the second track sounds, at full level.
            let tail = (Self.rate * 5 / 4)..<(Self.rate * 3 / 2)
            #expect(abs(StreamMeasure.frequency(during, frames: tail) - 600) < 2)
            let outgoing = engine.readCore { $0.streams.outgoingCount }
            #expect(outgoing == 0, "the outgoing track is not released after the crossfade")
        }

        @Test func starvedStreamComesBackWhereItStopped() throws {
            let folder = try StreamFixtureFolder()
            let track = StreamTone.stereo(440, frameCount: 6 * Self.rate)
            let path = try folder.writeWAV("tone.wav", track)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: path, isLooping: false)
            let start = try engine.render(frameCount: Self.rate / 2)
            #expect(StreamMeasure.maximumDifference(start, from: 0, track, from: 0, frameCount: Self.rate / 2) <= Self.exact)
            // The queue holds 4 x 0.2 s: stalling 2 s starves it.
            let stalled = engine.renderWithoutUpdates(frameCount: 2 * Self.rate)
            // The track's samples up to where it ran dry, then silence (from 1.20 but for the
            // mixer's de-click fade, see OpenALStack.isSilent).
            let playedFrames = try #require(engine.musicPosition())
            let dryFrame = playedFrames - Self.rate / 2
            let lastAudible = try #require((0..<(2 * Self.rate)).last { stalled[2 * $0] != 0 || stalled[2 * $0 + 1] != 0 })
            if OpenALStack.deClickFrames == 0 { #expect(lastAudible + 1 == dryFrame) }
            #expect(OpenALStack.isSilent(stalled, channelCount: 2, after: dryFrame), "after frame \(dryFrame), \(OpenALStack.name)")
            #expect(StreamMeasure.maximumDifference(stalled, from: 0, track, from: Self.rate / 2, frameCount: dryFrame) <= Self.exact)
            #expect(StreamMeasure.rms(stalled, frames: (Self.rate * 3 / 2)..<(2 * Self.rate)) == 0, "the stream did not starve")
            // Updates again: the stream refills and restarts by itself, from the frame it starved
            // at (from its new first buffer: no fade-in on any release).
            let recovered = try engine.render(frameCount: Self.rate)
            let firstAudible = try #require((0..<Self.rate).first { recovered[2 * $0] != 0 || recovered[2 * $0 + 1] != 0 })
            #expect(firstAudible <= Self.rate / 100, "the stream came back only after \(firstAudible) frames")
            let count = Self.rate - firstAudible
            let difference = StreamMeasure.maximumDifference(recovered, from: firstAudible, track, from: playedFrames, frameCount: count)
            #expect(difference <= Self.exact, "after recovery the audio differs from the track at frame \(playedFrames) by \(difference)")
            #expect(engine.musicPosition() == playedFrames + count)
        }

        @Test func streamedOggEqualsOggdec() throws {
            let folder = try StreamFixtureFolder()
            let frameCount = 3 * Self.rate + 1234
            var source = StreamTone.sine(frequencies: [523.25, 659.25], amplitude: 0.4, frameCount: frameCount)
            var noise = SystemRandomNumberGenerator()
            for index in source.indices { source[index] += Float.random(in: -0.05...0.05, using: &noise) }
            let wav = try folder.writeWAV("source.wav", source, sampleType: .int16)
            let ogg = try folder.encodeOgg(wavPath: wav, name: "track.ogg")
            let reference = try folder.oggdecInt16(ogg)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: ogg, isLooping: false)
            let length = try #require(engine.trackDuration()).frameCount
            #expect(length * 2 == reference.count)
            let rendered = try engine.render(frameCount: length + Self.rate / 10)
            var worst = 0
            var worstIndex = 0
            for index in 0..<reference.count {
                let difference = abs(Int(PCMConversion.int16(fromFloat: rendered[index])) - Int(reference[index]))
                if difference > worst { worst = difference; worstIndex = index }
            }
            #expect(worst <= 1, "sample \(worstIndex) differs from oggdec by \(worst) LSB")
            // After the end, silence (from 1.20 but for the mixer's de-click fade).
            #expect(OpenALStack.isSilent(rendered, channelCount: 2, after: length), "sound after the end of a one-shot track")
        }

        @Test func tenMinuteTrackIsNeverDecodedWhole() throws {
            let ogg = try StreamLongTrack.tenMinuteOgg()
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: ogg, isLooping: false)
            let (frameCount, bound, decodedAtStart, channelCount) = engine.readCore { core in
                let stream = core.streams.stream(on: .music)!
                return (stream.frameCount, stream.maximumFramesInFlight, stream.decodeFrame, stream.format.channelCount)
            }
            #expect(frameCount == 600 * Self.rate)
            #expect(bound * channelCount * 4 <= 1 << 20, "a stream holds \(bound * channelCount * 4) bytes of PCM")
            // The queue and the decode worker's ring ahead of it: the stream's whole bound.
            #expect(decodedAtStart <= bound)
            let rendered = try engine.render(frameCount: 2 * Self.rate)
            #expect(StreamMeasure.rms(rendered, frames: Self.rate..<(2 * Self.rate)) > 0.1)
            let position = try #require(engine.musicPosition())
            #expect(position == 2 * Self.rate)
            let decoded = engine.readCore { $0.streams.stream(on: .music)!.decodeFrame }
            #expect(decoded <= position + bound, "decoded \(decoded) frames for \(position) played")
        }

        @Test func missingFileThrowsNamingIt() throws {
            let engine = try SoundEngine.streamTestEngine()
            let path = "/nonexistent/interlude/theme.ogg"
            let error = try #require(throws: InterludeError.self) { try engine.playMusic(path: path) }
            #expect(error.code == .fileNotFound)
            #expect(error.message.contains(path))
            #expect(engine.musicPosition() == nil)
        }

        /// Damage nothing after decodes (a FLAC file garbled from its middle to its end; damage
        /// followed by frames that decode is stepped over instead, see DamagedFLACTests) ends
        /// the stream with its error.
        @Test func damagedDataEndsTheStreamAndVoicesPlayOn() throws {
            let folder = try StreamFixtureFolder()
            let wav = try folder.writeWAV("source.wav", StreamTone.stereo(300, frameCount: 8 * Self.rate), sampleType: .int16)
            let ogg = folder.path("corrupt.flac")
            try CodecFixture.run(["flac", "--silent", "--force", "-o", ogg, wav])
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ogg)))
            for index in (bytes.count / 2)..<bytes.count { bytes[index] ^= 0xA5 }
            try Data(bytes).write(to: URL(fileURLWithPath: ogg))

            let engine = try SoundEngine.streamTestEngine()
            let beep = try engine.makeSound(name: "beep", format: AudioFormat(sampleRate: Self.rate, channelCount: 1),
                                            samples: StreamTone.sine(frequencies: [1000], amplitude: 0.25, frameCount: Self.rate / 10))
            let voice = try engine.play(beep, parameters: VoiceParameters(position: nil, isLooping: true))
            try engine.playMusic(path: ogg, isLooping: true)
            var rendered: [Float] = []
            for _ in 0..<10 { rendered += try engine.render(frameCount: Self.rate) }
            let error = try #require(engine.musicError(), "no error after a corrupt page")
            #expect(error.code == .corruptData)
            #expect(error.message.contains(ogg))
            #expect(!engine.isTrackPlaying())
            #expect(engine.isPlaying(voice))
            // The last second: the stream is gone, the voice alone (1000 Hz) still sounds.
            let tail = (9 * Self.rate)..<(10 * Self.rate)
            #expect(StreamMeasure.rms(rendered, frames: tail) > 0.05)
            #expect(abs(StreamMeasure.frequency(rendered, frames: tail) - 1000) < 2)
            // Before the damage the music played (300 Hz plus the voice).
            #expect(StreamMeasure.rms(rendered, frames: 0..<Self.rate) > 0.3)
            // The error is kept until the channel plays another track.
            try engine.playMusic(path: try folder.writeWAV("next.wav", StreamTone.stereo(300, frameCount: Self.rate)))
            #expect(engine.musicError() == nil)
        }

        @Test func musicAndAmbienceStreamTogether() throws {
            let folder = try StreamFixtureFolder()
            let music = StreamTone.stereo(400, amplitude: 0.3, frameCount: 2 * Self.rate)
            let ambience = StreamTone.stereo(1500, amplitude: 0.3, frameCount: 2 * Self.rate)
            let musicPath = try folder.writeWAV("music.wav", music)
            let ambiencePath = try folder.writeWAV("ambience.wav", ambience)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: musicPath)
            try engine.playMusic(path: ambiencePath, channel: .ambience)
            let rendered = try engine.render(frameCount: Self.rate)
            let sum = zip(music, ambience).map { $0 + $1 }
            #expect(StreamMeasure.maximumDifference(rendered, from: 0, sum, from: 0, frameCount: Self.rate) <= 1e-5)
            #expect(engine.musicPosition() == Self.rate)
            #expect(engine.musicPosition(on: .ambience) == Self.rate)
        }

        @Test func fadesLandOnTheirTargetsOnTime() throws {
            let folder = try StreamFixtureFolder()
            let path = try folder.writeWAV("tone.wav", StreamTone.stereo(400, frameCount: 4 * Self.rate))
            let engine = try SoundEngine.streamTestEngine()
            let full = 0.5 / Float(2).squareRoot()
            try engine.playMusic(path: path, fadeSeconds: 0.5)
            let fadingIn = try engine.render(frameCount: Self.rate)
            let window = Self.rate / 100
            #expect(StreamMeasure.rms(fadingIn, frames: 0..<window) < 0.05 * full)
            let midway = StreamMeasure.rms(fadingIn, frames: (Self.rate / 4 - window / 2)..<(Self.rate / 4 + window / 2))
            #expect(abs(midway / full - Float(sin(Double.pi / 4))) < 0.05, "equal-power midpoint at \(midway / full)")
            // From 0.5 s (plus OpenAL's 5 ms de-click ramp) the level is full.
            let landed = (Self.rate / 2 + Self.rate / 200)..<(Self.rate / 2 + Self.rate / 200 + window)
            #expect(abs(StreamMeasure.decibels(StreamMeasure.rms(fadingIn, frames: landed) / full)) < 0.05)
            try engine.stop(engine.track(), fadeSeconds: 0.5)
            let fadingOut = try engine.render(frameCount: Self.rate)
            #expect(abs(StreamMeasure.decibels(StreamMeasure.rms(fadingOut, frames: 0..<window) / full)) < 0.5)
            let silent = (Self.rate / 2 + Self.rate / 200)..<Self.rate
            #expect(fadingOut[(2 * silent.lowerBound)...].allSatisfy { $0 == 0 }, "sound after the fade-out ended")
            let released = engine.readCore { $0.streams.allStreams.isEmpty }
            #expect(released)
            #expect(engine.musicPosition() == nil)
            #expect(engine.statistics.internalErrorCount == 0)
        }
    }
}

/// A generated ten-minute 48 kHz stereo Ogg, built once per machine (oggenc takes a few seconds).
enum StreamLongTrack {
    static func tenMinuteOgg() throws -> String {
        let cached = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-stream-10min-v1.ogg").path
        if FileManager.default.fileExists(atPath: cached) { return cached }
        let folder = try StreamFixtureFolder()
        let wav = folder.path("long.wav")
        let writer = try WAVFileWriter(path: wav, format: AudioFormat(sampleRate: StreamTone.sampleRate, channelCount: 2), sampleType: .int16)
        // One second of whole cycles, written 600 times.
        let second = StreamTone.stereo(250, frameCount: StreamTone.sampleRate)
        for _ in 0..<600 { try writer.append(second) }
        try writer.finish()
        let encoded = try folder.encodeOgg(wavPath: wav, name: "long.ogg", quality: 0)
        let staged = cached + ".\(UUID().uuidString)"
        try FileManager.default.copyItem(atPath: encoded, toPath: staged)
        _ = rename(staged, cached)
        return cached
    }
}
