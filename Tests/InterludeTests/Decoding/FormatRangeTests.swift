import Foundation
import Testing
@_spi(Tools) @testable import Interlude

/// What real files come in: sample rates from 8 kHz to 192 kHz decode at their own rate and exact
/// length, and more than two channels is refused by every decoder with an error that names the
/// file and the channel count (the engine mixes mono and stereo; it does not guess a downmix of a
/// surround layout).
@Suite struct FormatRangeTests {
    /// 0.25 s of a 330 Hz stereo tone at `rate`.
    static func tone(rate: Int, channelCount: Int = 2) -> [Int16] {
        let frames = rate / 4
        return (0..<frames).flatMap { frame -> [Int16] in
            let value = Int16(12_000 * sin(2 * .pi * 330 * Double(frame) / Double(rate)))
            return [Int16](repeating: value, count: channelCount)
        }
    }

    @Test(arguments: [8_000, 11_025, 22_050, 44_100, 96_000, 192_000])
    func losslessFormatsKeepEveryRateExactly(rate: Int) throws {
        let fixture = try CodecFixture()
        let samples = Self.tone(rate: rate)
        let wav = try fixture.writeWAV("tone.wav", samples, channelCount: 2, sampleRate: rate)
        let flac = try fixture.encode(.flac, samples, channelCount: 2, sampleRate: rate, name: "tone")
        let ogg = fixture.path("tone.ogg")
        try CodecFixture.run(["oggenc", "-Q", "-q", "4", "-o", ogg, wav])
        for path in [wav, flac, ogg] {
            let decoder = try DecoderFactory.open(path: path)
            #expect(decoder.format == AudioFormat(sampleRate: rate, channelCount: 2), "\(path)")
            #expect(decoder.frameCount == rate / 4, "\(path)")
            let decoded = try DecoderFactory.decodeAll(path: path)
            #expect(decoded.samples.count == 2 * (rate / 4), "\(path)")
            // The tone survives: 330 Hz from its zero crossings, on the left channel.
            let left = stride(from: 0, to: decoded.samples.count, by: 2).map { decoded.samples[$0] }
            let crossings = zip(left, left.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
            #expect(abs(Double(crossings) * 4 - 330) <= 8, "\(path): \(crossings) rising crossings in 0.25 s")
        }
    }

    /// MPEG audio has no rate above 48 kHz and Opus always decodes at 48 kHz: each says so in
    /// its format, whatever rate went into the encoder.
    @Test(arguments: [8_000, 22_050, 44_100, 96_000])
    func lossyFormatsReportTheRateTheyDecodeAt(rate: Int) throws {
        let fixture = try CodecFixture()
        let samples = Self.tone(rate: rate)
        let opus = try fixture.encode(.opus, samples, channelCount: 2, sampleRate: rate, name: "tone")
        #expect(try DecoderFactory.open(path: opus).format == AudioFormat(sampleRate: 48_000, channelCount: 2))
        if rate <= 48_000 {
            let mp3 = try fixture.encode(.mp3CBR, samples, channelCount: 2, sampleRate: rate, name: "tone")
            let decoder = try DecoderFactory.open(path: mp3)
            #expect(decoder.format.sampleRate == rate)
            #expect(abs(decoder.frameCount - rate / 4) <= rate / 100, "gapless length \(decoder.frameCount) for \(rate / 4)")
        }
    }

    @Test func eightChannelsAreRefusedByEveryDecoderNamingTheFile() throws {
        let fixture = try CodecFixture()
        let samples = Self.tone(rate: 48_000, channelCount: 8)
        let wav = try fixture.writeWAV("surround.wav", samples, channelCount: 8)
        // A plain (not EXTENSIBLE) 8-channel WAV names no speakers, so flac is told not to map them.
        let flac = fixture.path("surround.flac")
        try CodecFixture.run(["flac", "--silent", "--force", "--channel-map=none", "-o", flac, wav])
        let opus = try fixture.encode(.opus, samples, channelCount: 8, name: "surround")
        let ogg = fixture.path("surround.ogg")
        try CodecFixture.run(["oggenc", "-Q", "-q", "4", "-o", ogg, wav])
        for path in [wav, flac, opus, ogg] {
            do {
                _ = try DecoderFactory.open(path: path)
                Issue.record("\(path): 8 channels were accepted")
            } catch let error as InterludeError {
                #expect(error.code == .unsupportedFormat, "\(path): \(error)")
                #expect(error.message.contains(path))
                #expect(error.message.contains("8"), "\(error.message)")
            }
        }
    }
}
