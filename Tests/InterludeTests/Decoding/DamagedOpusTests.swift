import Foundation
import Testing
@testable import Interlude

/// The same damage in an Ogg Opus file (opusenc, 128 kbit/s): libopusfile reports the hole
/// (`OP_HOLE`) and the decoder steps over it as opusdec does, with every later frame in place.
@Suite struct DamagedOpusTests {
    static let rate = DamageFixture.rate
    static let seconds = DamageFixture.seconds

    /// A 6 s stereo tone encoded by opusenc, and a copy with 400 bytes in its middle overwritten.
    static func files(_ folder: StreamFixtureFolder) throws -> (intact: String, damaged: String) {
        try DamageFixture.files(folder, fileExtension: "opus") { try Codec.opus.encode($0, to: $1) }
    }

    @Test(arguments: [4_096, 100, 1])
    func theHoleIsReadAsSilenceAndLaterFramesKeepTheirPlace(framesPerRead: Int) throws {
        let folder = try StreamFixtureFolder()
        let (intact, damaged) = try Self.files(folder)
        let reference = try DamageFixture.readAll(OpusDecoder(path: intact), framesPerRead: 4_096)
        let decoder = try OpusDecoder(path: damaged)
        let samples = try DamageFixture.readAll(decoder, framesPerRead: framesPerRead)
        #expect(decoder.frameCount == Self.seconds * Self.rate)
        #expect(samples.count == reference.count, "the stream ended at the damage, or its frames moved")
        #expect(decoder.skippedFrameCount > 0)
        // opusenc fills pages with up to 1 s of packets: the damaged page goes, and with it the
        // packets that end on the next one (measured: 2.08 s); never the rest.
        #expect(decoder.skippedFrameCount < 3 * Self.rate, "a 400-byte hole took \(decoder.skippedFrameCount) frames")
        let frames = samples.count / 2
        let silentFrames = (0..<frames).filter { samples[2 * $0] == 0 && samples[2 * $0 + 1] == 0 }
        #expect(silentFrames.count >= decoder.skippedFrameCount)
        // The last second, well past the hole, is the intact file's frames at the same positions
        // (the decoder restarts after the hole, so the first frames after it differ a little).
        let tail = (frames - Self.rate) * 2
        let difference = zip(samples[tail...], reference[tail...]).map { abs($0 - $1) }.max() ?? 1
        #expect(difference < 1e-4, "the frames after the hole moved: largest difference \(difference)")
    }

    @Test func aSeekAfterTheHoleLandsOnTheExactFrame() throws {
        let folder = try StreamFixtureFolder()
        let (intact, damaged) = try Self.files(folder)
        let read = try DamageFixture.framesAfterSeek(intact: OpusDecoder(path: intact), damaged: OpusDecoder(path: damaged), to: 5 * Self.rate)
        #expect(read.got == read.expected)
    }
}
