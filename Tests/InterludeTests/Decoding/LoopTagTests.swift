import Foundation
import Testing
@_spi(Tools) @testable import Interlude

/// Loop tags as the decoders read them: Vorbis comments (SDL_mixer 2.6's reading: LOOPEND is
/// exclusive, LOOPLENGTH counts from LOOPSTART, keys in any case) and a WAV smpl loop (dwEnd
/// inclusive). Bad tags are ignored, never fatal.
@Suite struct LoopTagTests {
    static let frameCount = 48_000

    /// A tagged 1 s Ogg Vorbis track.
    static func taggedOgg(_ comments: [String], folder: StreamFixtureFolder) throws -> String {
        let wav = try folder.writeWAV("tone-\(UUID().uuidString).wav", StreamTone.stereo(440, frameCount: frameCount))
        let ogg = try folder.encodeOgg(wavPath: wav, name: "tagged-\(UUID().uuidString).ogg", quality: 2)
        if !comments.isEmpty { try folder.tagOgg(ogg, comments) }
        return ogg
    }

    @Test(arguments: [
        (["LOOPSTART=12000", "LOOPLENGTH=24000"], 12000..<36000),
        (["LOOPSTART=12000", "LOOPEND=36000"], 12000..<36000),
        (["loopstart=100", "LoopEnd=48000"], 100..<48000),
        (["LOOP-START=5", "LOOP_END=10"], 5..<10),
        (["LOOPEND=2000"], 0..<2000),
        (["LOOPSTART=1", "LOOPLENGTH=5", "LOOPEND=9"], 1..<9),
    ] as [([String], Range<Int>)])
    func vorbisCommentsGiveTheLoop(_ comments: [String], _ expected: Range<Int>) throws {
        let folder = try StreamFixtureFolder()
        let decoder = try DecoderFactory.open(path: try Self.taggedOgg(comments, folder: folder))
        #expect(decoder.frameCount == Self.frameCount)
        #expect(decoder.loopRegion == expected)
    }

    @Test(arguments: [
        [String](),
        ["TITLE=theme"],
        ["LOOPSTART=abc", "LOOPLENGTH=100"],
        ["LOOPSTART=100"],
        ["LOOPSTART=-5", "LOOPEND=100"],
        ["LOOPSTART=200", "LOOPEND=100"],
        ["LOOPSTART=0", "LOOPEND=48001"],
        ["LOOPSTART=10", "LOOPLENGTH=0"],
        ["LOOPSTART=9223372036854775807", "LOOPLENGTH=9"],
    ])
    func malformedOrMissingVorbisTagsGiveNoLoop(_ comments: [String]) throws {
        let folder = try StreamFixtureFolder()
        let decoder = try DecoderFactory.open(path: try Self.taggedOgg(comments, folder: folder))
        #expect(decoder.loopRegion == nil)
        #expect(decoder.frameCount == Self.frameCount)
    }

    @Test func wavSampleLoopEndIsInclusive() throws {
        let folder = try StreamFixtureFolder()
        let path = try folder.writeWAV("smpl.wav", StreamTone.stereo(440, frameCount: Self.frameCount), sampleType: .int16)
        try folder.appendSampleLoop(toWAV: path, startFrame: 1000, lastFrame: 47_999)
        let decoder = try DecoderFactory.open(path: path)
        #expect(decoder.loopRegion == 1000..<48_000)
        #expect(decoder.frameCount == Self.frameCount)
        #expect(try DecoderFactory.decodeAll(path: path).loopRegion == 1000..<48_000)
    }

    @Test(arguments: [(UInt32(0), UInt32(48_000)), (UInt32(500), UInt32(100))])
    func wavSampleLoopOutsideTheTrackIsIgnored(_ start: UInt32, _ last: UInt32) throws {
        let folder = try StreamFixtureFolder()
        let track = StreamTone.stereo(440, frameCount: Self.frameCount)
        let path = try folder.writeWAV("smpl.wav", track)
        try folder.appendSampleLoop(toWAV: path, startFrame: start, lastFrame: last)
        let decoder = try DecoderFactory.open(path: path)
        #expect(decoder.loopRegion == nil)
        #expect(try DecoderFactory.decodeAll(path: path).samples == track)
    }

    @Test func truncatedSampleChunkIsIgnored() throws {
        let folder = try StreamFixtureFolder()
        let track = StreamTone.stereo(440, frameCount: 1000)
        let path = try folder.writeWAV("smpl.wav", track)
        try folder.appendSampleLoop(toWAV: path, startFrame: 0, lastFrame: 99)
        // Cut the file inside the smpl chunk: its declared size now runs past the end.
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(data.count - 10).write(to: URL(fileURLWithPath: path))
        let decoder = try DecoderFactory.open(path: path)
        #expect(decoder.loopRegion == nil)
        #expect(try DecoderFactory.decodeAll(path: path).samples == track)
    }

    /// A FLAC file tagged with metaflac, as game music is tagged: the same keys as Vorbis.
    @Test(arguments: [
        (["LOOPSTART=12000", "LOOPLENGTH=24000"], 12000..<36000 as Range<Int>?),
        (["loopstart=100", "LOOPEND=48000"], 100..<48000),
        (["LOOPSTART=100"], nil),
        (["LOOPSTART=0", "LOOPEND=48001"], nil),
    ] as [([String], Range<Int>?)])
    func flacVorbisCommentsGiveTheLoop(_ comments: [String], _ expected: Range<Int>?) throws {
        let fixture = try CodecFixture()
        let path = try fixture.encode(.flac, CodecFixture.loopSine(), channelCount: 2, name: "tagged")
        try CodecFixture.run(["metaflac"] + comments.map { "--set-tag=\($0)" } + [path])
        let decoder = try DecoderFactory.open(path: path)
        #expect(decoder is FLACDecoder)
        #expect(decoder.frameCount == Self.frameCount)
        #expect(decoder.loopRegion == expected)
        // The tags change nothing of the samples.
        #expect(try readAllInt16(decoder) == (try fixture.reference(.flac, path)).samples)
    }

    /// An Ogg Opus file tagged by opusenc: frames at 48 kHz after the pre-skip.
    @Test(arguments: [
        (["LOOPSTART=4800", "LOOPEND=43200"], 4800..<43200 as Range<Int>?),
        (["LOOPSTART=1000", "LOOPLENGTH=2000"], 1000..<3000),
        (["LOOPSTART=x", "LOOPEND=10"], nil),
    ] as [([String], Range<Int>?)])
    func opusTagsGiveTheLoop(_ comments: [String], _ expected: Range<Int>?) throws {
        let fixture = try CodecFixture()
        let wav = try fixture.writeWAV("tone.wav", CodecFixture.loopSine(), channelCount: 2)
        let path = fixture.path("tagged.opus")
        try CodecFixture.run(["opusenc", "--quiet", "--bitrate", "128"] + comments.flatMap { ["--comment", $0] } + [wav, path])
        let decoder = try DecoderFactory.open(path: path)
        #expect(decoder is OpusDecoder)
        #expect(decoder.frameCount == Self.frameCount)
        #expect(decoder.loopRegion == expected)
    }
}
