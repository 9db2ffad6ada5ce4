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
            try engine.stop(voice)
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
            #expect(!engine.isTrackPlaying())
            // The music played before the failure (300 Hz and the voice), and is gone at the end.
            #expect(StreamMeasure.rms(rendered, frames: 0..<Self.rate) > 0.3)
            let tail = ((Self.trackSeconds - 1) * Self.rate)..<(Self.trackSeconds * Self.rate)
            #expect(StreamMeasure.rms(rendered, frames: tail) > 0.05)
            #expect(abs(StreamMeasure.frequency(rendered, frames: tail) - 1000) < 2)
            try Self.expectEngineIntact(engine, voice: voice, folder: folder)
        }

        /// What happens to the file under a playing track.
        enum FileChange: String, CaseIterable, CustomTestStringConvertible {
            /// Cut to 40 % of its bytes (2.4 s of 6): past what the queue (0.8 s) has read ahead.
            case truncated
            /// A 700 Hz track of the same format renamed over its path.
            case replaced

            var testDescription: String { rawValue }
        }

        /// What a player heard from a 6 s one-shot 300 Hz track, under a looping 1000 Hz voice,
        /// whose file changed 1 s into it: rendered 100 ms at a time for 7 s.
        struct ChangedStream {
            let folder: StreamFixtureFolder
            let path: String
            let engine: SoundEngine
            let voice: VoiceHandle
            let rendered: [Float]
            /// `musicPositionInFrames()` after each 100 ms.
            let positions: [Int?]

            static let stepFrames = StreamReadFaultTests.rate / 10
            static let changeStep = 10
            static let stepCount = 70

            init(_ container: Container, _ change: FileChange) throws {
                folder = try StreamFixtureFolder()
                path = try StreamReadFaultTests.track(container, in: folder)
                (engine, voice) = try StreamReadFaultTests.engineWithVoice()
                try engine.playMusic(path: path, isLooping: false)
                var rendered: [Float] = []
                var positions: [Int?] = []
                for step in 0..<Self.stepCount {
                    if step == Self.changeStep {
                        switch change {
                        case .truncated: #expect(truncate(path, off_t(try StreamReadFaultTests.byteCount(path) * 2 / 5)) == 0)
                        case .replaced:
                            // Offline, the render waits for the decoder: the time taken to encode
                            // it here changes nothing heard.
                            let replacement = try StreamReadFaultTests.track(container, in: folder, frequency: 700, name: "replacement")
                            #expect(rename(replacement, path) == 0)
                        }
                    }
                    rendered += try engine.render(frameCount: Self.stepFrames)
                    positions.append(engine.musicPosition())
                }
                self.rendered = rendered
                self.positions = positions
            }

            /// The amplitude of `frequency` Hz in the left channel over `frames`.
            func tone(_ frequency: Double, frames: Range<Int>) -> Float {
                StreamMeasure.tone(rendered, frequency, frames: frames)
            }

            /// The frames of 100 ms step `step`.
            static func frames(ofStep step: Int) -> Range<Int> {
                (step * stepFrames)..<((step + 1) * stepFrames)
            }

            /// Every step's position is the frames rendered so far while the track plays (exact:
            /// offline, the engine counts them), then nil once it ended, and never back. Returns
            /// the step in which the track ended.
            func expectHonestPositions(sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
                let endStep = try #require(positions.firstIndex(of: nil), "the track never ended", sourceLocation: sourceLocation)
                for step in 0..<endStep {
                    #expect(positions[step] == (step + 1) * Self.stepFrames, "position at step \(step)", sourceLocation: sourceLocation)
                }
                #expect(positions[endStep...].allSatisfy { $0 == nil }, "a position came back after the end", sourceLocation: sourceLocation)
                return endStep
            }

            /// In each step from `steps`, the track's 300 Hz is heard whole (`isHeard`) or not at
            /// all, and the voice's 1000 Hz is heard throughout; with the track gone, nothing
            /// else sounds: the voice is all there is.
            func expectTrack(isHeard: Bool, in steps: Range<Int>, sourceLocation: SourceLocation = #_sourceLocation) {
                for step in steps {
                    let frames = Self.frames(ofStep: step)
                    let track = tone(300, frames: frames)
                    let voice = tone(1000, frames: frames)
                    #expect(isHeard ? track > 0.4 : track < 0.001, "step \(step): 300 Hz at \(track)", sourceLocation: sourceLocation)
                    #expect(abs(voice - 0.149) < 0.01, "step \(step): the voice at \(voice)", sourceLocation: sourceLocation)
                    if !isHeard {
                        let residual = abs(StreamMeasure.rms(rendered, frames: frames) - voice / Float(2).squareRoot())
                        #expect(residual < 0.002, "step \(step): something besides the voice (\(residual))", sourceLocation: sourceLocation)
                    }
                }
            }
        }

        @Test("A file truncated while it streams: what was there plays, then the track ends with .corruptData naming the file and the truncation; positions honest, the voice plays on",
              arguments: Container.allCases)
        func truncatedWhileStreaming(container: Container) throws {
            let heard = try ChangedStream(container, .truncated)
            let error = try #require(heard.engine.musicError(), "the truncated track ended without an error")
            #expect(error.code == .corruptData)
            #expect(error.message.hasPrefix(heard.path + ": ") && error.message.contains("truncated"), "\(error.message)")
            #expect(!heard.engine.isTrackPlaying())
            // It played on past the cut from what it had read and what the file still held (at
            // least to 1.5 s), and ended well before the track's 6 s.
            let endStep = try heard.expectHonestPositions()
            #expect((15..<45).contains(endStep), "ended at step \(endStep)")
            // The 300 Hz until the last position counted, nothing of it one step later.
            heard.expectTrack(isHeard: true, in: 0..<endStep)
            heard.expectTrack(isHeard: false, in: (endStep + 1)..<ChangedStream.stepCount)
            try Self.expectEngineIntact(heard.engine, voice: heard.voice, folder: heard.folder)
        }

        @Test("A file replaced (renamed over) while it streams: the open track plays on whole, to its own end",
              arguments: Container.allCases)
        func replacedWhileStreaming(container: Container) throws {
            let heard = try ChangedStream(container, .replaced)
            #expect(heard.engine.musicError() == nil)
            // Every frame of the old file plays, at its own 300 Hz, then the track ends.
            let endStep = try heard.expectHonestPositions()
            #expect(endStep == Self.trackSeconds * 10)
            heard.expectTrack(isHeard: true, in: 0..<endStep)
            for step in 0..<endStep {
                #expect(heard.tone(700, frames: ChangedStream.frames(ofStep: step)) < 0.001, "the new file heard at step \(step)")
            }
            heard.expectTrack(isHeard: false, in: endStep..<ChangedStream.stepCount)
            #expect(!heard.engine.isTrackPlaying())
            // The path now holds the new file: played next, it sounds at 700 Hz.
            try heard.engine.stop(heard.voice)
            try heard.engine.playMusic(path: heard.path)
            let next = try heard.engine.render(frameCount: Self.rate / 2)
            #expect(abs(StreamMeasure.frequency(next, frames: (Self.rate / 10)..<(Self.rate / 2)) - 700) < 2)
            #expect(heard.engine.statistics.internalErrorCount == 0)
        }
    }
}
