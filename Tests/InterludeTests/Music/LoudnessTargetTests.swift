import Foundation
import Testing
@_spi(Tools) @testable import Interlude
@testable import InterludeScene

/// Loudness targets on streamed tracks, heard: a real Ogg Vorbis file (oggenc) played offline
/// with a target measures that target in the render, by libebur128 over the rendered output.
extension EngineSuites {
    @Suite struct LoudnessTargetTests {
        static let rate = StreamTone.sampleRate
        static let seconds = 6

        /// A tone whose level moves (so gating has something to do), encoded with oggenc.
        static func encodedTone(_ folder: StreamFixtureFolder, amplitude: Float, channelCount: Int, name: String) throws -> String {
            let frameCount = seconds * rate
            var samples = [Float](repeating: 0, count: frameCount * channelCount)
            for frame in 0..<frameCount {
                let time = Double(frame) / Double(rate)
                let envelope = Float(0.6 + 0.4 * sin(2 * .pi * 0.5 * time))
                let value = amplitude * envelope * Float(sin(2 * .pi * 330 * time) * 0.7 + sin(2 * .pi * 1250 * time) * 0.3)
                for channel in 0..<channelCount { samples[frame * channelCount + channel] = value * (channel == 0 ? 1 : 0.8) }
            }
            let wav = try folder.writeWAV("\(name).wav", samples, channelCount: channelCount)
            return try folder.encodeOgg(wavPath: wav, name: "\(name).ogg")
        }

        /// Renders `seconds` of an offline engine after `start`, and measures the output.
        static func renderedLoudness(channelCount: Int = 2, _ start: (SoundEngine) throws -> Void) throws -> Loudness {
            let engine = try TestEngine.offline(channelCount: channelCount)
            defer { engine.shutdown() }
            try start(engine)
            let output = try engine.render(frameCount: seconds * rate)
            return try Loudness.measure(samples: output, format: AudioFormat(sampleRate: rate, channelCount: channelCount))
        }

        /// A stereo track on a stereo output, and a mono one on a mono output (on a stereo output
        /// OpenAL Soft pans a mono track to the centre, 1.5 dB below its own level).
        @Test("A track with a loudness target measures the target in the render, louder or quieter than itself",
              arguments: [(amplitude: Float(0.05), channels: 2, target: -14.0), (0.6, 2, -30.0), (0.08, 1, -18.0)])
        func trackMeetsItsTarget(amplitude: Float, channels: Int, target: Double) throws {
            let folder = try StreamFixtureFolder()
            let track = try Self.encodedTone(folder, amplitude: amplitude, channelCount: channels, name: "tone")
            let own = try Self.renderedLoudness(channelCount: channels) { try $0.playMusic(path: track, isLooping: false) }
            let measured = try Loudness.measure(path: track)
            // Played as is, the render is as loud as the file: the target's gain is what moves it.
            #expect(abs(own.integratedLUFS - measured.integratedLUFS) < 0.5, "untargeted \(own.integratedLUFS) vs file \(measured.integratedLUFS)")
            #expect(abs(measured.integratedLUFS - target) > 5, "the fixture must be far from the target")
            let targeted = try Self.renderedLoudness(channelCount: channels) {
                try $0.playMusic(path: track, isLooping: false, loudnessLUFS: target)
            }
            #expect(abs(targeted.integratedLUFS - target) <= 0.5, "rendered \(targeted.integratedLUFS) LUFS for a target of \(target)")
        }

        @Test func aCrossfadeTargetsTheIncomingTrack() throws {
            let folder = try StreamFixtureFolder()
            let loud = try Self.encodedTone(folder, amplitude: 0.7, channelCount: 2, name: "loud")
            let quiet = try Self.encodedTone(folder, amplitude: 0.04, channelCount: 2, name: "quiet")
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            try engine.playMusic(path: loud, isLooping: true)
            _ = try engine.render(frameCount: Self.rate / 2)
            try engine.crossfadeMusic(toPath: quiet, fadeSeconds: 0.5, isLooping: true, loudnessLUFS: -20)
            _ = try engine.render(frameCount: Self.rate)
            let after = try engine.render(frameCount: 4 * Self.rate)
            let measured = try Loudness.measure(samples: after, format: AudioFormat(sampleRate: Self.rate, channelCount: 2))
            #expect(abs(measured.integratedLUFS - -20) <= 0.5, "rendered \(measured.integratedLUFS) LUFS after the crossfade")
        }

        @Test func aGamesDecoderIsMeasuredFromItsStartAndPlaysFromIt() throws {
            let folder = try StreamFixtureFolder()
            let track = try Self.encodedTone(folder, amplitude: 0.05, channelCount: 2, name: "tone")
            let heard = try Self.renderedLoudness { engine in
                // Handed over a second in: measured from frame 0 all the same, and played from it.
                let decoder = try DecoderFactory.open(path: track)
                var skipped = [Float](repeating: 0, count: 2 * Self.rate)
                _ = try skipped.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
                try engine.playMusic(decoder: decoder, isLooping: false, loudnessLUFS: -15)
            }
            #expect(abs(heard.integratedLUFS - -15) <= 0.5, "rendered \(heard.integratedLUFS) LUFS")
        }

        @Test func aSnapshotKeepsTheTargetAndARestoredTrackMeetsIt() throws {
            let folder = try StreamFixtureFolder()
            let track = try Self.encodedTone(folder, amplitude: 0.05, channelCount: 2, name: "tone")
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            try engine.playMusic(path: track, isLooping: false, loudnessLUFS: -17)
            _ = try engine.render(frameCount: Self.rate / 10)
            let snapshot = try engine.savedState()
            #expect(snapshot.tracks.first?.loudnessLUFS == -17)
            var restoredSnapshot = snapshot
            restoredSnapshot.tracks[0].positionInFrames = 0
            let heard = try Self.renderedLoudness { try $0.restore(restoredSnapshot) }
            #expect(abs(heard.integratedLUFS - -17) <= 0.5, "rendered \(heard.integratedLUFS) LUFS after the restore")
        }

        @Test func aTrackIsMeasuredOnceUntilItsFileChanges() throws {
            let folder = try StreamFixtureFolder()
            let track = try Self.encodedTone(folder, amplitude: 0.3, channelCount: 2, name: "tone")
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            try engine.playMusic(path: track, loudnessLUFS: -20)
            try engine.crossfadeMusic(toPath: track, fadeSeconds: 0.1, loudnessLUFS: -23)
            #expect(try engine.measureLoudness(ofTrackAt: track) == Loudness.measure(path: track))
            #expect(engine.trackLoudnessMeasurementCount == 1)
            // Another recording under the same name is measured again, and plays at its own gain.
            let louder = try Self.encodedTone(folder, amplitude: 0.6, channelCount: 2, name: "louder")
            try FileManager.default.removeItem(atPath: track)
            try FileManager.default.copyItem(atPath: louder, toPath: track)
            let remeasured = try engine.measureLoudness(ofTrackAt: track)
            #expect(engine.trackLoudnessMeasurementCount == 2)
            #expect(abs(remeasured.integratedLUFS - (try Loudness.measure(path: louder)).integratedLUFS) < 0.01)
        }

        @Test func aLoadedSoundCarriesItsLoudnessAndIsNotMeasuredAgain() throws {
            let folder = try StreamFixtureFolder()
            let track = try Self.encodedTone(folder, amplitude: 0.3, channelCount: 2, name: "tone")
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let sound = try engine.loadSound(path: track)
            let reference = try Loudness.measure(path: track)
            #expect(abs(sound.integratedLoudnessLUFS - reference.integratedLUFS) < 0.01)
            #expect(try engine.loadSound(path: track) === sound)
            // A 16-bit WAV is kept as 16-bit: measured from the same samples.
            let wav = try folder.writeWAV("short.wav", StreamTone.stereo(440, amplitude: 0.5, frameCount: Self.rate / 10), sampleType: .int16)
            let short = try engine.loadSound(path: wav)
            // Shorter than a 400 ms block: measured over its own length, as if it were repeated.
            let repeated = (0..<8).flatMap { _ in StreamTone.stereo(440, amplitude: 0.5, frameCount: Self.rate / 10) }
            let longer = try Loudness.measure(samples: repeated, format: AudioFormat(sampleRate: Self.rate, channelCount: 2))
            #expect(abs(short.integratedLoudnessLUFS - longer.integratedLUFS) < 0.3, "\(short.integratedLoudnessLUFS) vs \(longer.integratedLUFS)")
            let silent = try engine.makeSound(name: "silence", format: AudioFormat(sampleRate: Self.rate, channelCount: 1),
                                              samples: [Float](repeating: 0, count: Self.rate))
            #expect(silent.integratedLoudnessLUFS == -.infinity)
        }

        @Test("a made sound's loudness, measured when first asked for, is its samples', and stays")
        func aMadeSoundIsMeasuredWhenAsked() throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let format = AudioFormat(sampleRate: Self.rate, channelCount: 2)
            let samples = StreamTone.stereo(440, amplitude: 0.3, frameCount: Self.rate)
            let reference = try Loudness.measure(samples: samples, format: format).integratedLUFS
            let made = try engine.makeSound(name: "tone", format: format, samples: samples)
            #expect(abs(made.integratedLoudnessLUFS - reference) < 0.01, "\(made.integratedLoudnessLUFS) vs \(reference)")
            #expect(made.integratedLoudnessLUFS == made.integratedLoudnessLUFS)
            let halfAsLoud = try engine.makeSound(name: "quieter", format: format, samples: samples.map { $0 * 0.5 })
            #expect(abs(halfAsLoud.integratedLoudnessLUFS - (reference - 6.02)) < 0.05, "\(halfAsLoud.integratedLoudnessLUFS) vs \(reference - 6.02)")
        }

        @Test func aSilentTrackGetsNoGain() throws {
            let folder = try StreamFixtureFolder()
            let wav = try folder.writeWAV("quiet.wav", StreamTone.stereo(440, amplitude: 0.0001, frameCount: 2 * Self.rate))
            let loudness = try Loudness.measure(path: wav)
            #expect(loudness.isSilent)
            #expect(loudness.gain(toTarget: -10) == 1)
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            try engine.playMusic(path: wav, isLooping: false, loudnessLUFS: -10)
            let output = try engine.render(frameCount: Self.rate)
            let peak = output.map { abs($0) }.max() ?? 0
            #expect(peak > 0 && peak < 0.0002, "peak \(peak): played at its own level")
        }

        @Test("A loudness target outside -70...0 is refused, naming the call", arguments: [-70.5, 0.5, Double.nan, -.infinity])
        func badTargetsAreRefused(target: Double) throws {
            let engine = try TestEngine.offline()
            defer { engine.shutdown() }
            let track = TestPaths.asset("music/theme.ogg")
            #expect { try engine.playMusic(path: track, loudnessLUFS: target) } throws: { error in
                let error = error as? InterludeError
                return error?.code == .invalidArgument && error?.message.hasPrefix("playMusic(path: \(track)): loudness") == true
            }
            #expect { try engine.crossfadeMusic(toPath: track, fadeSeconds: 1, loudnessLUFS: target) } throws: { error in
                (error as? InterludeError)?.message.hasPrefix("crossfadeMusic(toPath: \(track)): loudness") == true
            }
            #expect(engine.music() == nil)
        }
    }
}

extension EngineSuites.LoudnessTargetTests {
    /// A track of stems is measured on its stems' sum at gain 1, on the decoders it then plays
    /// from their first frame: two quiet stems together render at the target.
    @Test func aTrackOfStemsMeetsItsTargetAsTheSumOfItsStems() throws {
        let folder = try StreamFixtureFolder()
        let one = try Self.encodedTone(folder, amplitude: 0.05, channelCount: 2, name: "one")
        let two = try Self.encodedTone(folder, amplitude: 0.05, channelCount: 2, name: "two")
        let track = MusicTrack(name: "pair", stems: [.init(name: "one", path: one), .init(name: "two", path: two)], loudnessLUFS: -18)
        let measured = try Self.renderedLoudness { try $0.playMusic(track) }
        #expect(abs(measured.integratedLUFS - -18) <= 0.5, "rendered \(measured.integratedLUFS) LUFS")
    }
}
