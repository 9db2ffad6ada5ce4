import Foundation
import Testing
@testable import Interlude

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
