import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// Files whose headers declare far more audio than they hold: a FLAC whose STREAMINFO says
    /// 2^36 - 1 frames (256 GiB of float samples for this mono file) and a WAV whose data chunk
    /// says 4 GB. Loading or streaming them gets a typed error naming the file. An allocation of
    /// the declared size would fail on this 24 GiB machine and trap, so a passing run also shows
    /// none was attempted: the first allocation is bounded by the file's size.
    @Suite struct HugeDeclaredLengthTests {
        static let fixtures = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/fuzz")

        /// The 8 kHz mono FLAC fixture (2000 frames) with its STREAMINFO total set to 2^36 - 1.
        static func inflatedFLAC(in folder: ScratchFolder) throws -> String {
            var bytes = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("FLACFuzzer/mono-8k.flac")))
            // "fLaC", the block header, then STREAMINFO: the 36-bit total is the low nibble of
            // byte 21 and bytes 22 to 25.
            try #require(bytes.count > 42 && bytes[0..<4] == [0x66, 0x4C, 0x61, 0x43])
            bytes[21] |= 0x0F
            for index in 22...25 { bytes[index] = 0xFF }
            let path = folder.path("inflated.flac")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }

        @Test("loadSound of a FLAC declaring 2^36 - 1 frames throws .corruptData naming the file; the engine loads the next sound")
        func inflatedFLACLoad() throws {
            let folder = try ScratchFolder(prefix: "huge-length")
            let path = try Self.inflatedFLAC(in: folder)
            let engine = try TestEngine.offline()
            let buffersBefore = engine.statistics.alBufferCount
            let error = try #require(throws: InterludeError.self) { try engine.loadSound(path: path) }
            #expect(error.code == .corruptData)
            #expect(error.message.hasPrefix(path + ": ") && error.message.contains("truncated"), "\(error.message)")
            #expect(engine.statistics.alBufferCount == buffersBefore)
            let tone = try engine.loadSound(path: SessionAssets.tone440)
            try engine.play(tone)
            let rendered = try engine.render(frameCount: TestEngine.sampleRate / 2)
            #expect(SignalMeasure.rms(rendered, channel: 0, channelCount: 2) > 0.1)
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test("A FLAC declaring 2^36 - 1 frames streams what it holds, then ends with .corruptData naming the file")
        func inflatedFLACStream() throws {
            let folder = try ScratchFolder(prefix: "huge-length")
            let path = try Self.inflatedFLAC(in: folder)
            let engine = try TestEngine.offline()
            try engine.playMusic(path: path, isLooping: false)
            let rendered = try engine.render(frameCount: TestEngine.sampleRate)
            // 2000 frames at 8 kHz: a quarter of a second of sound.
            #expect(SignalMeasure.rms(rendered, channel: 0, channelCount: 2, frames: 0..<(TestEngine.sampleRate / 5)) > 0.01)
            let error = try #require(engine.musicError(), "the stream ended without an error")
            #expect(error.code == .corruptData)
            #expect(error.message.hasPrefix(path + ": "), "\(error.message)")
            #expect(!engine.isTrackPlaying())
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test("loadSound of a WAV whose data chunk declares 4 GB throws .corruptData naming the file")
        func hugeWAVLoad() throws {
            let path = Self.fixtures.appendingPathComponent("WAVFuzzer/huge-data-size.wav").path
            let engine = try TestEngine.offline()
            let error = try #require(throws: InterludeError.self) { try engine.loadSound(path: path) }
            #expect(error.code == .corruptData)
            #expect(error.message.hasPrefix(path + ": ") && error.message.contains("declares"), "\(error.message)")
            #expect(engine.statistics.internalErrorCount == 0)
        }
    }
}
