import Foundation
import Testing
@_spi(Tools) @testable import Interlude

/// FLAC cases beyond the shared ones in ``CodecDecoderTests``.
@Suite struct FLACDecoderTests {
    /// The encoded sweep with STREAMINFO's 36-bit total sample count cleared to "unknown".
    static func withUnknownLength(_ bytes: [UInt8]) -> [UInt8] {
        var patched = bytes
        patched[21] &= 0xF0
        for index in 22..<26 { patched[index] = 0 }
        return patched
    }

    @Test func unknownLengthIsCountedAtOpen() throws {
        let fixture = try CodecFixture()
        let encoded = try fixture.encode(.flac, CodecFixture.stereoSweep(), channelCount: 2, name: "sweep")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: encoded)))
        let path = try fixture.write("unknown-length.flac", Self.withUnknownLength(bytes))
        let decoder = try FLACDecoder(path: path)
        #expect(decoder.frameCount == 144_000)
        #expect(try readAllInt16(decoder) == (try readAllInt16(FLACDecoder(path: encoded))))
    }

    @Test func streamInfoWithoutFramesIsZeroLengthAudio() throws {
        let fixture = try CodecFixture()
        let encoded = try fixture.encode(.flac, CodecFixture.stereoSweep(), channelCount: 2, name: "sweep")
        var header = Self.withUnknownLength(Array(try Data(contentsOf: URL(fileURLWithPath: encoded)).prefix(42)))
        header[4] |= 0x80   // STREAMINFO is the last metadata block
        let path = try fixture.write("empty.flac", header)
        let decoder = try FLACDecoder(path: path)
        #expect(decoder.frameCount == 0)
        #expect(try readAll(decoder).isEmpty)
        #expect(try DecoderFactory.decodeAll(path: path).samples.isEmpty)
    }

    @Test func truncatedStreamIsCorruptData() throws {
        let fixture = try CodecFixture()
        let encoded = try fixture.encode(.flac, CodecFixture.stereoSweep(), channelCount: 2, name: "sweep")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: encoded)))
        for fraction in [0.3, 0.6, 0.99] {
            let path = try fixture.write("cut-\(fraction).flac", Array(bytes.prefix(Int(Double(bytes.count) * fraction))))
            expectError(.corruptData, naming: path) { _ = try DecoderFactory.decodeAll(path: path) }
        }
        for cut in [4, 20, 41] {
            let path = try fixture.write("head-\(cut).flac", Array(bytes.prefix(cut)))
            expectError(.corruptData, naming: path) { _ = try FLACDecoder(path: path) }
        }
    }

    @Test func threeChannelsAreUnsupported() throws {
        let fixture = try CodecFixture()
        let wav = try fixture.writeWAV("three.wav", [Int16](repeating: 100, count: 3 * 8000), channelCount: 3)
        let flac = fixture.path("three.flac")
        try CodecFixture.run(["flac", "--silent", "--force", "--channel-map=none", "-o", flac, wav])
        let error = #expect(throws: InterludeError.self) { _ = try DecoderFactory.open(path: flac) }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.contains(flac) == true)
        #expect(error?.message.contains("3 FLAC channels") == true)
    }
}
