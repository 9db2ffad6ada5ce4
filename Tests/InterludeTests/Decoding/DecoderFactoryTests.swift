import Foundation
import Testing
@_spi(Tools) @testable import Interlude

@Suite struct DecoderFactoryTests {
    @Test func picksTheDecoderByMagicBytesNotByName() throws {
        let fixture = try WAVFixture()
        let wav = try fixture.write("really-a-wav.ogg", WAVFixture.pcm16File([16384, -16384], channelCount: 1, sampleRate: 8000))
        #expect(try DecoderFactory.open(path: wav) is WAVDecoder)
        let ogg = try fixture.write("really-an-ogg.wav", [UInt8](Data(contentsOf: URL(fileURLWithPath: VorbisDecoderTests.encodeSweep(in: fixture)))))
        #expect(try DecoderFactory.open(path: ogg) is VorbisDecoder)
    }

    @Test func rejectsWhatItCannotIdentify() throws {
        let fixture = try WAVFixture()
        let text = try fixture.write("readme.wav", Array("RIFF? no, just text".utf8))
        expectError(.unsupportedFormat, naming: text) { _ = try DecoderFactory.open(path: text) }
        let empty = try fixture.write("empty.ogg", [])
        expectError(.corruptData, naming: empty) { _ = try DecoderFactory.decodeAll(path: empty) }
        let missing = fixture.path("missing.wav")
        expectError(.fileNotFound, naming: missing) { _ = try DecoderFactory.decodeAll(path: missing) }
        let adpcm = try fixture.write("adpcm.wav", WAVFixture.riff([
            WAVFixture.fmt(formatTag: 2, channelCount: 1, bitsPerSample: 4, blockAlign: 256), WAVFixture.data([0, 0])]))
        expectError(.unsupportedFormat, naming: adpcm) { _ = try DecoderFactory.open(path: adpcm) }
    }

    @Test func decodeAllWAVGivesEveryExactSample() throws {
        let fixture = try WAVFixture()
        let path = try fixture.write("short.wav", WAVFixture.riff([
            WAVFixture.fmt(formatTag: 3, channelCount: 2, sampleRate: 48_000, bitsPerSample: 32),
            WAVFixture.data(WAVFixture.float32([0.5, -0.5, 0.25, -0.25, 1, -1]))]))
        let decoded = try DecoderFactory.decodeAll(path: path)
        #expect(decoded.format == AudioFormat(sampleRate: 48_000, channelCount: 2))
        #expect(decoded.samples == [0.5, -0.5, 0.25, -0.25, 1, -1])
    }

    @Test func decodeAllVorbisMatchesStreaming() throws {
        let fixture = try WAVFixture()
        let ogg = try VorbisDecoderTests.encodeSweep(in: fixture)
        let decoded = try DecoderFactory.decodeAll(path: ogg)
        #expect(decoded.format == AudioFormat(sampleRate: 48_000, channelCount: 2))
        #expect(decoded.samples == (try readAll(VorbisDecoder(path: ogg))))
    }

    @Test func decodeAllGrowsPastTheFirstAllocationForHighlyCompressedVorbis() throws {
        let fixture = try WAVFixture()
        // Ten seconds of near-silence compresses far below 64 frames per byte's worth of file.
        let quiet = (0..<480_000).map { Int16($0 % 2) }
        let wav = try fixture.write("quiet.wav", WAVFixture.pcm16File(quiet, channelCount: 1, sampleRate: 48_000))
        let ogg = fixture.path("quiet.ogg")
        try VorbisDecoderTests.run("/usr/bin/oggenc", ["-q", "0", "-o", ogg, wav])
        let fileByteCount = try #require(FileManager.default.attributesOfItem(atPath: ogg)[.size] as? Int)
        #expect(fileByteCount * 64 < 480_000)
        let decoded = try DecoderFactory.decodeAll(path: ogg)
        #expect(decoded.samples.count == 480_000)
        #expect(decoded.samples.allSatisfy { abs($0) < 0.01 })
    }
}
