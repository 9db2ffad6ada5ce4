#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

extension EngineSuites {
    /// A streamed soundtrack whose file fails under it: a read error (EIO) mid-stream, the file
    /// truncated while it plays, the file replaced while it plays. The game sees a typed error
    /// naming the file through `musicError()`, the voices play on, and the engine plays the next
    /// track as usual.
    ///
    /// EIO is injected at the kernel boundary (`DecoderFaults`: the `read(2)` under the
    /// decoder's stdio stream fails with EIO), since no file system here fails a read on demand;
    /// the truncation and the replacement are real (`truncate(2)`, `rename(2)`).
    @Suite struct StreamReadFaultTests {
        static let rate = StreamTone.sampleRate
        static let trackSeconds = 6

        enum Container: String, CaseIterable {
            case wav, ogg, flac, mp3, opus

            /// The soundtrack formats whose truncation under a playing stream is checked.
            static let truncationChecked: [Container] = [.wav, .ogg]
        }

        /// A 6 s stereo 300 Hz track in `container`.
        static func track(_ container: Container, in folder: StreamFixtureFolder, frequency: Double = 300,
                          name: String = "track") throws -> String {
            let wav = try folder.writeWAV("\(name).wav", StreamTone.stereo(frequency, frameCount: trackSeconds * rate),
                                          sampleType: .int16)
            switch container {
            case .wav: return wav
            case .ogg: return try folder.encodeOgg(wavPath: wav, name: "\(name).ogg")
            case .flac, .mp3, .opus:
                let encoded = folder.path("\(name).\(container.rawValue)")
                let codec: Codec = container == .flac ? .flac : container == .mp3 ? .mp3CBR : .opus
                try codec.encode(wav, to: encoded)
                return encoded
            }
        }

        /// An engine with a looping 1000 Hz voice (no position: straight to both channels).
        static func engineWithVoice() throws -> (SoundEngine, VoiceHandle) {
            let engine = try SoundEngine.streamTestEngine()
            let beep = try engine.makeSound(name: "beep", format: AudioFormat(sampleRate: rate, channelCount: 1),
                                            samples: StreamTone.sine(frequencies: [1000], amplitude: 0.25, frameCount: rate / 10))
            let voice = try engine.play(beep, parameters: VoiceParameters(position: nil, isLooping: true))
            return (engine, voice)
        }

        static func byteCount(_ path: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        }

        /// After the failure: the voice alone sounds, then the next track plays at its frequency.
        static func expectEngineIntact(_ engine: SoundEngine, voice: VoiceHandle, folder: StreamFixtureFolder) throws {
            #expect(engine.isPlaying(voice))
            engine.stop(voice)
            let next = try folder.writeWAV("next.wav", StreamTone.stereo(400, frameCount: rate))
            try engine.playMusic(path: next)
            #expect(engine.musicError() == nil)
            let rendered = try engine.render(frameCount: rate / 2)
            let steady = (rate / 10)..<(rate / 2)
            #expect(StreamMeasure.rms(rendered, frames: steady) > 0.3)
            #expect(abs(StreamMeasure.frequency(rendered, frames: steady) - 400) < 2)
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test("EIO mid-stream: the track ends with .unreadableFile naming the file, the voice plays on", arguments: Container.allCases)
        func readErrorMidStream(container: Container) throws {
            let folder = try StreamFixtureFolder()
            let path = try Self.track(container, in: folder)
            defer { DecoderFaults.disarmAll() }
            // Opened through the failing stream with nothing failing yet; after a second of play
            // every read fails.
            DecoderFaults.armReadError(path: path, afterBytes: .max)
            let (engine, voice) = try Self.engineWithVoice()
            try engine.playMusic(path: path, isLooping: false)
            var rendered = try engine.render(frameCount: Self.rate)
            DecoderFaults.armReadError(path: path, afterBytes: 0)
            for _ in 1..<Self.trackSeconds { rendered += try engine.render(frameCount: Self.rate) }

            let error = try #require(engine.musicError(), "no error after a read error mid-stream")
            #expect(error.code == .unreadableFile)
            #expect(error.message.hasPrefix(path + ": ") && error.message.contains("read error"), "\(error.message)")
            #expect(!engine.isMusicPlaying())
            // The music played before the failure (300 Hz and the voice), and is gone at the end.
            #expect(StreamMeasure.rms(rendered, frames: 0..<Self.rate) > 0.3)
            let tail = ((Self.trackSeconds - 1) * Self.rate)..<(Self.trackSeconds * Self.rate)
            #expect(StreamMeasure.rms(rendered, frames: tail) > 0.05)
            #expect(abs(StreamMeasure.frequency(rendered, frames: tail) - 1000) < 2)
            try Self.expectEngineIntact(engine, voice: voice, folder: folder)
        }

        @Test("A file truncated while it streams: the track ends with .corruptData naming the file, the voice plays on",
              arguments: Container.truncationChecked)
        func truncatedWhileStreaming(container: Container) throws {
            let folder = try StreamFixtureFolder()
            let path = try Self.track(container, in: folder)
            let (engine, voice) = try Self.engineWithVoice()
            try engine.playMusic(path: path, isLooping: false)
            var rendered = try engine.render(frameCount: Self.rate)
            // Cut at 40 % (2.4 s of 6): past what the queue (0.8 s) has read ahead.
            #expect(truncate(path, off_t(try Self.byteCount(path) * 2 / 5)) == 0)
            for _ in 1..<Self.trackSeconds { rendered += try engine.render(frameCount: Self.rate) }

            let error = try #require(engine.musicError(), "the truncated track ended without an error")
            #expect(error.code == .corruptData)
            #expect(error.message.hasPrefix(path + ": ") && error.message.contains("truncated"), "\(error.message)")
            #expect(!engine.isMusicPlaying())
            // What was there before the cut played: 300 Hz under the voice until 2 s.
            #expect(StreamMeasure.rms(rendered, frames: Self.rate..<(2 * Self.rate)) > 0.3)
            let tail = ((Self.trackSeconds - 1) * Self.rate)..<(Self.trackSeconds * Self.rate)
            #expect(abs(StreamMeasure.frequency(rendered, frames: tail) - 1000) < 2)
            try Self.expectEngineIntact(engine, voice: voice, folder: folder)
        }

        @Test("A file replaced (renamed over) while it streams: the open track plays on whole, to its own end",
              arguments: Container.truncationChecked)
        func replacedWhileStreaming(container: Container) throws {
            let folder = try StreamFixtureFolder()
            let path = try Self.track(container, in: folder)
            let replacement = try Self.track(container, in: folder, frequency: 700, name: "replacement")
            let engine = try SoundEngine.streamTestEngine()
            try engine.playMusic(path: path, isLooping: false)
            var rendered = try engine.render(frameCount: Self.rate)
            #expect(rename(replacement, path) == 0)
            for _ in 1..<(Self.trackSeconds + 1) { rendered += try engine.render(frameCount: Self.rate) }

            #expect(engine.musicError() == nil)
            // Every second of the old file plays, at its own 300 Hz, then the track ends.
            for second in 0..<Self.trackSeconds {
                let frames = (second * Self.rate + Self.rate / 10)..<((second + 1) * Self.rate - Self.rate / 10)
                #expect(StreamMeasure.rms(rendered, frames: frames) > 0.3, "second \(second)")
                #expect(abs(StreamMeasure.frequency(rendered, frames: frames) - 300) < 2, "second \(second)")
            }
            #expect(!engine.isMusicPlaying())
            // The path now holds the new file: played next, it sounds at 700 Hz.
            try engine.playMusic(path: path)
            let next = try engine.render(frameCount: Self.rate / 2)
            #expect(abs(StreamMeasure.frequency(next, frames: (Self.rate / 10)..<(Self.rate / 2)) - 700) < 2)
            #expect(engine.statistics.internalErrorCount == 0)
        }
    }
}
