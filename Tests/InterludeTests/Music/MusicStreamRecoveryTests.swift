import Foundation
import Testing
@_spi(Tools) @testable import Interlude
@testable import InterludeScene

extension EngineSuites {
    /// The soundtrack through seeks, track ends, interruptions and device loss: positions are the
    /// engine's own, and playback picks up sample for sample where it left off.
    @Suite struct MusicStreamRecoveryTests {
        static let rate = StreamTone.sampleRate
        static let exact: Float = 1e-6

        static func isSilent(_ samples: [Float]) -> Bool { samples.allSatisfy { $0 == 0 } }

        @Test func seekPlaysFromTheFrame() throws {
            let folder = try StreamFixtureFolder()
            let track = StreamTone.stereo(437, frameCount: 3 * Self.rate)
            let path = try folder.writeWAV("tone.wav", track)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: path, isLooping: false)
            _ = try engine.render(frameCount: 1_000)
            try engine.seek(engine.track(), toFrame: 70_001)
            #expect(engine.musicPosition() == 70_001)
            let rendered = try engine.render(frameCount: Self.rate / 2)
            // The stream restarts on a fresh queue at the sought frame, at full level from its
            // first frame; from 1.20 the old position fades out over the same 64 frames.
            let ramp = OpenALStack.deClickFrames
            #expect(StreamMeasure.fadesOutOverTheRamp(rendered, from: 0, track, from: 70_001))
            #expect(StreamMeasure.maximumDifference(rendered, from: ramp, track, from: 70_001 + ramp, frameCount: Self.rate / 2 - ramp) <= Self.exact)
            // Seeking while paused: silent (on 1.19 at once; from 1.20 once the paused voice's
            // fade is over), and the resume starts at the new frame, on a fresh queue.
            try engine.pause(engine.track())
            try engine.seek(engine.track(), toFrame: 5)
            let paused = try engine.render(frameCount: 4_800)
            #expect(StreamMeasure.fadesOutOverTheRamp(paused, from: 0, nil, from: 0))
            #expect(Self.isSilent(Array(paused[(2 * ramp)...])))
            #expect(engine.musicPosition() == 5)
            try engine.resume(engine.track())
            let resumed = try engine.render(frameCount: 4_800)
            #expect(StreamMeasure.maximumDifference(resumed, from: 0, track, from: 5, frameCount: 4_800) <= Self.exact)
            let music = try engine.track()
            let error = try #require(throws: InterludeError.self) { try engine.seek(music, toFrame: 3 * Self.rate + 1) }
            #expect(error.code == .invalidArgument)
        }

        @Test func oneShotTrackEndsAndReleasesItsObjects() throws {
            let folder = try StreamFixtureFolder()
            let track = StreamTone.stereo(500, frameCount: Self.rate)
            let path = try folder.writeWAV("tone.wav", track)
            let engine = try SoundEngine.streamTestEngine()
            let baseline = engine.statistics
            try engine.playMusic(path: path, isLooping: false)
            let rendered = try engine.render(frameCount: Self.rate * 3 / 2)
            #expect(StreamMeasure.maximumDifference(rendered, from: 0, track, from: 0, frameCount: Self.rate) <= Self.exact)
            // Silence after the end (from 1.20, after the mixer's 64-frame fade of the sample nearest zero).
            #expect(Self.isSilent(Array(rendered[(2 * (Self.rate + OpenALStack.deClickFrames))...])))
            #expect(engine.musicPosition() == nil)
            #expect(!engine.isTrackPlaying())
            #expect(engine.musicError() == nil)
            let after = engine.statistics
            #expect(after.alSourceCount == baseline.alSourceCount)
            #expect(after.alBufferCount == baseline.alBufferCount)
        }

        @Test func loopRegionOutsideTheTrackThrows() throws {
            let folder = try StreamFixtureFolder()
            let path = try folder.writeWAV("tone.wav", StreamTone.stereo(500, frameCount: Self.rate))
            let engine = try SoundEngine.streamTestEngine()
            let baseline = engine.statistics
            for region in [0..<(Self.rate + 1), 100..<100] {
                let error = try #require(throws: InterludeError.self) { try engine.playMusic(path: path, loopRegion: region) }
                #expect(error.code == .invalidArgument)
                #expect(error.message.contains(path))
            }
            #expect(engine.musicPosition() == nil)
            #expect(engine.statistics.alSourceCount == baseline.alSourceCount)
            #expect(engine.statistics.alBufferCount == baseline.alBufferCount)
        }

        @Test func interruptionResumesAtTheSavedFrame() throws {
            let folder = try StreamFixtureFolder()
            let track = StreamTone.stereo(440, frameCount: 3 * Self.rate)
            let path = try folder.writeWAV("tone.wav", track)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: path)
            _ = try engine.render(frameCount: 33_333)
            try engine.beginInterruption(reason: .other)
            #expect(Self.isSilent(try engine.render(frameCount: Self.rate / 3)))
            #expect(engine.musicPosition() == 33_333)
            try engine.endInterruption(shouldResume: true)
            let resumed = try engine.render(frameCount: Self.rate / 2)
            // On its frame; from 1.20 the first 64 frames fade in, then every sample is the track's.
            #expect(StreamMeasure.maximumDifference(resumed, from: 0, track, from: 33_333, frameCount: Self.rate / 2, gain: OpenALStack.resumeGain) <= Self.exact)
            #expect(engine.musicPosition() == 33_333 + Self.rate / 2)
        }

        @Test func seekWhileInterruptedPlaysFromTheNewFrameAtTheEnd() throws {
            let folder = try StreamFixtureFolder()
            let track = StreamTone.stereo(440, frameCount: 3 * Self.rate)
            let path = try folder.writeWAV("tone.wav", track)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: path)
            _ = try engine.render(frameCount: 10_000)
            try engine.beginInterruption()
            try engine.seek(engine.track(), toFrame: 100_003)
            #expect(engine.musicPosition() == 100_003)
            #expect(Self.isSilent(try engine.render(frameCount: 4_800)))
            try engine.endInterruption(shouldResume: true)
            let resumed = try engine.render(frameCount: Self.rate / 2)
            // A fresh queue at the sought frame: at full level from its first frame on both.
            #expect(StreamMeasure.maximumDifference(resumed, from: 0, track, from: 100_003, frameCount: Self.rate / 2) <= Self.exact)
            #expect(engine.musicPosition() == 100_003 + Self.rate / 2)
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test func crossfadeDuringAnInterruptionStartsTheNewTrackAtTheEnd() throws {
            let folder = try StreamFixtureFolder()
            let first = try folder.writeWAV("a.wav", StreamTone.stereo(400, frameCount: 2 * Self.rate))
            let secondTrack = StreamTone.stereo(600, frameCount: 2 * Self.rate)
            let second = try folder.writeWAV("b.wav", secondTrack)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: first)
            _ = try engine.render(frameCount: 10_000)
            try engine.beginInterruption()
            try engine.crossfadeMusic(toPath: second, fadeSeconds: 1)
            #expect(Self.isSilent(try engine.render(frameCount: 10_000)))
            try engine.endInterruption(shouldResume: true)
            let resumed = try engine.render(frameCount: Self.rate * 3 / 2)
            // The first track was replaced while silent: only the second sounds, fading in from its start.
            #expect(abs(StreamMeasure.frequency(resumed, frames: Self.rate..<(Self.rate * 3 / 2)) - 600) < 2)
            #expect(StreamMeasure.maximumDifference(resumed, from: Self.rate + Self.rate / 100, secondTrack,
                                                    from: Self.rate + Self.rate / 100, frameCount: Self.rate / 4) <= Self.exact)
            #expect(engine.readCore { $0.streams.outgoingCount == 0 })
        }

        @Test func deviceLossKeepsTheTrackPosition() throws {
            let folder = try StreamFixtureFolder()
            let intro = StreamTone.stereo(1000, frameCount: Self.rate / 2)
            let loop = StreamTone.stereo(300, frameCount: Self.rate)
            let track = intro + loop
            let path = try folder.writeWAV("intro-loop.wav", track)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: path, loopRegion: (Self.rate / 2)..<(Self.rate * 3 / 2))
            // 2 s: the intro, then 1.5 s of a 1 s loop: 0.5 s into its second pass.
            _ = try engine.render(frameCount: 2 * Self.rate)
            let lostAt = Self.rate
            #expect(engine.musicPosition() == lostAt)
            engine.disconnectDevice()
            #expect(Self.isSilent(try engine.render(frameCount: Self.rate / 4)))
            #expect(engine.musicPosition() == lostAt)
            try engine.reconnectDevice()
            let resumed = try engine.render(frameCount: Self.rate)
            // From frame 48000 of the track: to the loop's end, then the loop again, not the intro.
            let toEnd = Self.rate / 2
            #expect(StreamMeasure.maximumDifference(resumed, from: 0, track, from: lostAt, frameCount: toEnd) <= Self.exact)
            #expect(StreamMeasure.maximumDifference(resumed, from: toEnd, track, from: Self.rate / 2, frameCount: toEnd) <= Self.exact)
            #expect(engine.musicPosition() == Self.rate)
        }

        @Test func pausedTrackStaysPausedThroughDeviceLossThenResumesAtItsFrame() throws {
            let folder = try StreamFixtureFolder()
            let track = StreamTone.stereo(440, frameCount: 3 * Self.rate)
            let path = try folder.writeWAV("tone.wav", track)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: path)
            _ = try engine.render(frameCount: 21_111)
            try engine.pause(engine.track())
            engine.disconnectDevice()
            _ = try engine.render(frameCount: 4_800)
            try engine.reconnectDevice()
            #expect(Self.isSilent(try engine.render(frameCount: 4_800)), "a paused track played after the device came back")
            #expect(engine.musicPosition() == 21_111)
            try engine.resume(engine.track())
            let resumed = try engine.render(frameCount: 9_600)
            #expect(StreamMeasure.maximumDifference(resumed, from: 0, track, from: 21_111, frameCount: 9_600) <= Self.exact)
        }

        @Test func musicGroupGainScalesOnlyTheSoundtrack() throws {
            let folder = try StreamFixtureFolder()
            let music = StreamTone.stereo(400, amplitude: 0.3, frameCount: 2 * Self.rate)
            let ambience = StreamTone.stereo(1500, amplitude: 0.3, frameCount: 2 * Self.rate)
            let engine = try SoundEngine.streamTestEngine()
            try engine.setGain(0.5, of: .music)
            try engine.playMusic(path: try folder.writeWAV("music.wav", music))
            try engine.playMusic(path: try folder.writeWAV("ambience.wav", ambience), channel: .ambience)
            let rendered = try engine.render(frameCount: Self.rate / 2)
            let expected = zip(music, ambience).map { 0.5 * $0 + $1 }
            #expect(StreamMeasure.maximumDifference(rendered, from: 0, expected, from: 0, frameCount: Self.rate / 2) <= 1e-5)
        }

        @Test func crossfadeInterruptingACrossfadeKeepsTheLevel() throws {
            let folder = try StreamFixtureFolder()
            let engine = try SoundEngine.streamTestEngine()
            let level = StreamMeasure.rms(StreamTone.stereo(400, frameCount: Self.rate), frames: 0..<Self.rate)
            try engine.playMusic(path: try folder.writeWAV("a.wav", StreamTone.stereo(400, frameCount: 2 * Self.rate)))
            _ = try engine.render(frameCount: Self.rate / 2)
            try engine.crossfadeMusic(toPath: try folder.writeWAV("b.wav", StreamTone.stereo(600, frameCount: 2 * Self.rate)), fadeSeconds: 1)
            var rendered = try engine.render(frameCount: Self.rate / 2)
            try engine.crossfadeMusic(toPath: try folder.writeWAV("c.wav", StreamTone.stereo(800, frameCount: 2 * Self.rate)), fadeSeconds: 1)
            rendered += try engine.render(frameCount: Self.rate * 3 / 2)
            let window = Self.rate / 100
            var worst: Float = 0
            for start in stride(from: 0, to: 2 * Self.rate, by: window) {
                worst = max(worst, abs(StreamMeasure.decibels(StreamMeasure.rms(rendered, frames: start..<(start + window)) / level)))
            }
            #expect(worst <= 1.5, "level strays \(worst) dB during overlapping crossfades")
            #expect(abs(StreamMeasure.frequency(rendered, frames: (Self.rate * 7 / 4)..<(2 * Self.rate)) - 800) < 2)
            #expect(engine.readCore { $0.streams.outgoingCount == 0 })
        }
    }
}

extension EngineSuites {
    /// Edge cases of the stream: pausing mid-crossfade, loops shorter than a buffer, tracks at
    /// another rate than the output.
    @Suite struct MusicStreamEdgeTests {
        static let rate = StreamTone.sampleRate
        static let exact: Float = 1e-6

        @Test func oggLoopRegionMatchesOggdecAcrossTheSeam() throws {
            let folder = try StreamFixtureFolder()
            var source = StreamTone.sine(frequencies: [330, 495], amplitude: 0.4, frameCount: 2 * Self.rate)
            var noise = SystemRandomNumberGenerator()
            for index in source.indices { source[index] += Float.random(in: -0.05...0.05, using: &noise) }
            let ogg = try folder.encodeOgg(wavPath: try folder.writeWAV("source.wav", source, sampleType: .int16), name: "loop.ogg")
            let reference = try folder.oggdecInt16(ogg)
            let engine = try SoundEngine.streamTestEngine()
            // A loop region that starts and ends off any page or packet boundary.
            let region = 12_345..<(2 * Self.rate - 777)
            try engine.playMusic(path: ogg, loopRegion: region)
            let total = region.upperBound + 2 * region.count + 1_000
            let rendered = try engine.render(frameCount: total)
            var worst = 0
            var worstFrame = 0
            for frame in 0..<total {
                let trackFrame = frame < region.upperBound ? frame : region.lowerBound + (frame - region.upperBound) % region.count
                for channel in 0..<2 {
                    let difference = abs(Int(PCMConversion.int16(fromFloat: rendered[2 * frame + channel])) - Int(reference[2 * trackFrame + channel]))
                    if difference > worst { worst = difference; worstFrame = frame }
                }
            }
            #expect(worst <= 1, "output frame \(worstFrame) differs from oggdec by \(worst) LSB")
            #expect(engine.musicPosition() == region.lowerBound + 1_000)
        }

        @Test func seekToTheEndOfALoopingTrackWrapsToItsStart() throws {
            let folder = try StreamFixtureFolder()
            let track = StreamTone.stereo(480, frameCount: Self.rate)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: try folder.writeWAV("loop.wav", track))
            _ = try engine.render(frameCount: 1_000)
            try engine.seek(engine.track(), toFrame: Self.rate)
            #expect(engine.musicPosition() == 0)
            let rendered = try engine.render(frameCount: 4_800)
            #expect(StreamMeasure.maximumDifference(rendered, from: 0, track, from: 0, frameCount: 4_800) <= Self.exact)
        }

        @Test func fileThatIsNotAudioThrowsNamingIt() throws {
            let folder = try StreamFixtureFolder()
            let path = folder.path("notes.ogg")
            try Data("these are not the pages you are looking for".utf8).write(to: URL(fileURLWithPath: path))
            let track = StreamTone.stereo(480, frameCount: Self.rate)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: try folder.writeWAV("theme.wav", track))
            _ = try engine.render(frameCount: 1_000)
            let error = try #require(throws: InterludeError.self) { try engine.playMusic(path: path) }
            #expect([.unsupportedFormat, .corruptData].contains(error.code))
            #expect(error.message.contains(path))
            // The track that was playing is not replaced by one that failed to open.
            let rendered = try engine.render(frameCount: 4_800)
            #expect(StreamMeasure.maximumDifference(rendered, from: 0, track, from: 1_000, frameCount: 4_800) <= Self.exact)
        }

        @Test func pauseDuringACrossfadeSilencesBothTracks() throws {
            let folder = try StreamFixtureFolder()
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: try folder.writeWAV("a.wav", StreamTone.stereo(400, frameCount: 2 * Self.rate)))
            _ = try engine.render(frameCount: Self.rate / 4)
            try engine.crossfadeMusic(toPath: try folder.writeWAV("b.wav", StreamTone.stereo(600, frameCount: 2 * Self.rate)), fadeSeconds: 1)
            _ = try engine.render(frameCount: Self.rate / 2)
            try engine.pause(engine.track())
            let paused = try engine.render(frameCount: Self.rate / 2)
            #expect(StreamMeasure.rms(paused, frames: (Self.rate / 100)..<(Self.rate / 2)) == 0, "the outgoing track plays on while the music is paused")
            try engine.resume(engine.track())
            let resumed = try engine.render(frameCount: Self.rate)
            // Both come back: the crossfade goes on from its midpoint, the level steady.
            let level = 0.5 / Float(2).squareRoot()
            let window = Self.rate / 100
            for start in stride(from: window, to: Self.rate, by: window) {
                let decibels = StreamMeasure.decibels(StreamMeasure.rms(resumed, frames: start..<(start + window)) / level)
                #expect(abs(decibels) <= 1.5, "window at \(start) after resume: \(decibels) dB")
            }
            #expect(abs(StreamMeasure.frequency(resumed, frames: (Self.rate * 3 / 4)..<Self.rate) - 600) < 2)
        }

        @Test(arguments: [2_400, 240, 48])
        func loopsShorterThanABufferStayExact(loopFrames: Int) throws {
            let folder = try StreamFixtureFolder()
            // One or more whole cycles: 20 Hz x loop length... a tone of frequency rate / loopFrames.
            let track = StreamTone.stereo(Double(Self.rate) / Double(loopFrames), frameCount: loopFrames)
            let path = try folder.writeWAV("short.wav", track)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: path)
            let total = Self.rate / 2
            let rendered = try engine.render(frameCount: total)
            var worst: Float = 0
            for frame in 0..<total {
                for channel in 0..<2 {
                    worst = max(worst, abs(rendered[2 * frame + channel] - track[2 * (frame % loopFrames) + channel]))
                }
            }
            #expect(worst <= Self.exact, "a \(loopFrames)-frame loop differs from the track by \(worst)")
            #expect(engine.musicPosition() == total % loopFrames)
        }

        @Test func trackAtAnotherRateCountsItsOwnFrames() throws {
            let folder = try StreamFixtureFolder()
            let sourceRate = 44_100
            var track = [Float](repeating: 0, count: 3 * sourceRate * 2)
            for frame in 0..<(3 * sourceRate) {
                let value = 0.5 * Float(sin(2 * Double.pi * 441 * Double(frame) / Double(sourceRate)))
                track[2 * frame] = value
                track[2 * frame + 1] = value
            }
            let path = folder.path("cd.wav")
            try WAVFileWriter.write(samples: track, format: AudioFormat(sampleRate: sourceRate, channelCount: 2), sampleType: .float32, to: path)
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: path, isLooping: false)
            let rendered = try engine.render(frameCount: 2 * Self.rate)
            let position = try #require(engine.musicPosition())
            // Measured: OpenAL Soft 1.19 steps through a resampled source in 12-bit fixed point,
            // 44100 / 48000 x 4096 = 3763 per output frame, so the track plays at 44097.7 Hz:
            // 88195 frames in 2 s, not 88200; from 1.23 in 16-bit, 88199. The position counts
            // what was played.
            let played = OpenALStack.framesPlayed(sourceRate: sourceRate, outputRate: Self.rate, outputFrames: 2 * Self.rate)
            #expect(position == played, "position \(position) after 2 s of a 44.1 kHz track, \(OpenALStack.name)")
            #expect(engine.trackDuration()?.sampleRate == sourceRate)
            #expect(abs(StreamMeasure.frequency(rendered, frames: 0..<(2 * Self.rate)) - 441) < 0.5)
            // Resampled, the output still has no jump bigger than the tone's own step.
            let step = StreamMeasure.maximumStep(rendered, channel: 0, frames: 0..<(2 * Self.rate))
            #expect(step <= 0.5 * Float(2 * Double.pi * 441 / Double(Self.rate)) * 1.01)
        }
    }
}

extension EngineSuites {
    /// What a snapshot keeps of a streamed track.
    @Suite struct MusicSnapshotTests {
        @Test func snapshotKeepsTheLoopRegionAndPosition() throws {
            let folder = try StreamFixtureFolder()
            let rate = StreamTone.sampleRate
            let path = try folder.writeWAV("intro-loop.wav", StreamTone.stereo(480, frameCount: 2 * rate))
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: path, loopRegion: (rate / 2)..<(2 * rate))
            try engine.playMusic(path: path, channel: .ambience)
            _ = try engine.render(frameCount: 2 * rate + 1_000)
            let snapshot = try engine.savedState()
            let music = try #require(snapshot.tracks.first { $0.channel == .music })
            #expect(music.loopRegion == (rate / 2)..<(2 * rate))
            #expect(music.positionInFrames == rate / 2 + 1_000)
            let ambience = try #require(snapshot.tracks.first { $0.channel == .ambience })
            #expect(ambience.loopRegion == nil)
            #expect(ambience.positionInFrames == 1_000)
            // Round trip, and a snapshot written before loopRegion existed still reads.
            let saved = folder.path("state.json")
            try snapshot.write(to: saved)
            #expect(try SavedState.read(from: saved) == snapshot)
            let old = try String(contentsOfFile: saved, encoding: .utf8)
                .replacingOccurrences(of: #""loopRegion" : \[\s*\d+,\s*\d+\s*\],"#, with: "", options: .regularExpression)
            #expect(!old.contains("loopRegion"))
            try old.write(toFile: saved, atomically: true, encoding: .utf8)
            #expect(try SavedState.read(from: saved).tracks.allSatisfy { $0.loopRegion == nil })
        }
    }
}
