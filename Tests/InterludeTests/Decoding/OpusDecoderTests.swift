import Foundation
import Testing
@_spi(Tools) @testable import Interlude

/// Ogg Opus cases beyond the shared ones in ``CodecDecoderTests``.
@Suite struct OpusDecoderTests {
    @Test func threeChannelsAreUnsupported() throws {
        let fixture = try CodecFixture()
        let wav = try fixture.writeWAV("three.wav", [Int16](repeating: 100, count: 3 * 8000), channelCount: 3)
        let opus = fixture.path("three.opus")
        try CodecFixture.run(["opusenc", "--quiet", wav, opus])
        let error = #expect(throws: InterludeError.self) { _ = try DecoderFactory.open(path: opus) }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.contains(opus) == true)
        #expect(error?.message.contains("3 Opus channels") == true)
    }

    @Test func textAfterAnOpusCaptureIsRefused() throws {
        let fixture = try CodecFixture()
        let path = try fixture.write("fake.opus", Array("OggS but not really an Ogg page, just text".utf8))
        let error = #expect(throws: InterludeError.self) { _ = try OpusDecoder(path: path) }
        #expect(error.map { [.corruptData, .unsupportedFormat].contains($0.code) } == true)
        #expect(error?.message.contains(path) == true)
    }
}

extension OpusDecoderTests {
    /// Cut at a page boundary while open, the stream holds only whole pages but no end-of-stream
    /// page: reading reports the truncation (not a quiet early end, nor a bad link) after the
    /// pages that are there.
    @Test func truncatedAtAPageBoundaryWhileOpen() throws {
        let fixture = try CodecFixture()
        let samples = (0..<(6 * 48_000)).map { Int16(8_000 * sin(2 * Double.pi * 300 * Double($0) / 48_000)) }
        let wav = try fixture.writeWAV("tone.wav", samples, channelCount: 1, sampleRate: 48_000)
        let path = fixture.path("tone.opus")
        try Codec.opus.encode(wav, to: path)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The first page that starts past 40 % of the file.
        let capture = Array("OggS".utf8)
        let cut = try #require((bytes.count * 2 / 5..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == capture })
        let decoder = try OpusDecoder(path: path)
        var buffer = [Float](repeating: 0, count: 4_800)
        let firstFrames = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
        #expect(firstFrames == 4_800)
        #expect(truncate(path, off_t(cut)) == 0)
        var framesRead = firstFrames
        let error = #expect(throws: InterludeError.self) {
            while true {
                let frames = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
                guard frames > 0 else { return }
                framesRead += frames
            }
        }
        #expect(error?.code == .corruptData)
        #expect(error?.message.hasPrefix(path + ": ") == true && error?.message.contains("file truncated") == true, "\(String(describing: error))")
        #expect((48_000..<decoder.frameCount).contains(framesRead), "read \(framesRead) of \(decoder.frameCount)")
    }
}
