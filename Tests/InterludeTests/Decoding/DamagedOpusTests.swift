import Foundation
import Testing
@testable import Interlude

/// The same damage in an Ogg Opus file (opusenc, 128 kbit/s): libopusfile reports the hole
/// (`OP_HOLE`) and the decoder steps over it as opusdec does, with every later frame in place.
@Suite struct DamagedOpusTests {
    static let rate = DamageFixture.rate
    static let seconds = DamageFixture.seconds

    /// A 6 s stereo tone encoded by opusenc, and a copy with 400 bytes at `fraction` of it
    /// overwritten.
    static func files(_ folder: StreamFixtureFolder, at fraction: Double = 0.5) throws -> (intact: String, damaged: String) {
        try DamageFixture.files(folder, fileExtension: "opus", at: fraction) { try Codec.opus.encode($0, to: $1) }
    }

    /// Damage in the last pages: libopusfile then drops even an intact last page after the hole,
    /// so nothing after it decodes; the rest of the track is read as silence, to its full length.
    @Test(arguments: [0.75, 0.85, 0.95])
    func damageNearTheEndLeavesSilenceToTheEnd(fraction: Double) throws {
        let folder = try StreamFixtureFolder()
        let (intact, damaged) = try Self.files(folder, at: fraction)
        let reference = try DamageFixture.readAll(OpusDecoder(path: intact), framesPerRead: 4_096)
        let decoder = try OpusDecoder(path: damaged)
        let samples = try DamageFixture.readAll(decoder, framesPerRead: 4_096)
        #expect(samples.count == reference.count, "read \(samples.count / 2) of \(reference.count / 2) frames")
        #expect(decoder.skippedFrameCount > 0)
        // Before the damage: the intact file's frames.
        let head = 2 * Self.rate * 2
        #expect(Array(samples[..<head]) == Array(reference[..<head]))
    }

    /// A seek whose 0.5 s pre-roll would start inside the lost stretch starts at its target: it
    /// succeeds, and 0.4 s on, the frames are the read-through's.
    @Test func aSeekJustAfterTheHoleStartsAtItsTarget() throws {
        let folder = try StreamFixtureFolder()
        let (_, damaged) = try Self.files(folder)
        let through = try DamageFixture.readAll(OpusDecoder(path: damaged), framesPerRead: 4_096)
        let frames = through.count / 2
        let lastSilent = try #require((0..<frames).last { through[2 * $0] == 0 && through[2 * $0 + 1] == 0 })
        let target = lastSilent + Self.rate / 5
        let decoder = try OpusDecoder(path: damaged)
        try decoder.seek(toFrame: target)
        var read = [Float](repeating: 0, count: 2 * Self.rate / 2)
        let got = try read.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
        #expect(got == Self.rate / 2)
        let settled = 2 * (Self.rate * 2 / 5)
        let difference = zip(read[settled...], through[(2 * target + settled)...]).map { abs($0 - $1) }.max() ?? 1
        #expect(difference < 1e-3, "0.4 s after the seek the frames differ by \(difference)")
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
        // packets that end on the next one (measured here: 2.08 s); never the rest.
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
