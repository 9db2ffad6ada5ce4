import Foundation
import Testing
@_spi(Tools) @testable import Interlude

/// MP3 cases beyond the shared ones in ``CodecDecoderTests``.
@Suite struct MP3DecoderTests {
    @Test func id3v2TagIsSkippedAndTheFileDetectedByContent() throws {
        let fixture = try CodecFixture()
        let wav = try fixture.writeWAV("tone.wav", CodecFixture.monoTone(), channelCount: 1, sampleRate: 44_100)
        let tagged = fixture.path("tagged.ogg")
        try CodecFixture.run(["lame", "--quiet", "--id3v2-only", "--tt", String(repeating: "A long title ", count: 40), wav, tagged])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: tagged)))
        #expect(bytes.starts(with: Array("ID3".utf8)))
        let decoder = try DecoderFactory.open(path: tagged)
        #expect(decoder is MP3Decoder)
        #expect(decoder.frameCount == CodecFixture.monoTone().count)
    }

    @Test func gaplessLengthEqualsTheSourceLength() throws {
        let fixture = try CodecFixture()
        for codec in [Codec.mp3CBR, .mp3VBR] {
            let decoder = try MP3Decoder(path: fixture.encode(codec, CodecFixture.loopSine(), channelCount: 2, name: "loop-\(codec)"))
            #expect(decoder.frameCount == CodecFixture.sampleRate, "\(codec)")
            #expect(try readAll(decoder).count == 2 * CodecFixture.sampleRate, "\(codec)")
        }
    }

    @Test func textWithAFrameSyncIsNotAudio() throws {
        let fixture = try CodecFixture()
        let path = try fixture.write("noise.mp3", [0xFF, 0xFB, 0x90, 0x64] + Array("no audio here".utf8))
        let error = #expect(throws: InterludeError.self) { _ = try DecoderFactory.decodeAll(path: path) }
        #expect(error?.code == .corruptData)
        #expect(error?.message.contains(path) == true)
    }
}
