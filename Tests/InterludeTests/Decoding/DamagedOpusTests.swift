import Foundation
import Testing
@testable import Interlude

/// The same damage in an Ogg Opus file (opusenc, 128 kbit/s): libopusfile reports the hole
/// (`OP_HOLE`) and the decoder steps over it as opusdec does, with every later frame in place.
@Suite struct DamagedOpusTests {
    static let rate = DamagedOggTests.rate
    static let seconds = DamagedOggTests.seconds

    /// A 6 s stereo tone encoded by opusenc, and a copy with 400 bytes in its middle overwritten.
    static func files(_ folder: StreamFixtureFolder) throws -> (intact: String, damaged: String) {
        let wav = try folder.writeWAV("tone.wav", StreamTone.stereo(440, frameCount: seconds * rate))
        let intact = folder.path("intact.opus")
        try Codec.opus.encode(wav, to: intact)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: intact)))
        let middle = bytes.count / 2
        for index in middle..<(middle + 400) { bytes[index] = UInt8(truncatingIfNeeded: index &* 97 &+ 13) }
        let damaged = folder.path("damaged.opus")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        return (intact, damaged)
    }

    @Test(arguments: [4_096, 100, 1])
    func theHoleIsReadAsSilenceAndLaterFramesKeepTheirPlace(framesPerRead: Int) throws {
        let folder = try StreamFixtureFolder()
        let (intact, damaged) = try Self.files(folder)
        let reference = try DamagedOggTests.readAll(OpusDecoder(path: intact), framesPerRead: 4_096)
        let decoder = try OpusDecoder(path: damaged)
        let samples = try DamagedOggTests.readAll(decoder, framesPerRead: framesPerRead)
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
        let target = 5 * Self.rate
        let reference = try OpusDecoder(path: intact)
        try reference.seek(toFrame: target)
        let decoder = try OpusDecoder(path: damaged)
        _ = try DamagedOggTests.readAll(decoder, framesPerRead: 512)
        try decoder.seek(toFrame: target)
        var expected = [Float](repeating: 0, count: 2_000)
        var got = [Float](repeating: 0, count: 2_000)
        _ = try expected.withUnsafeMutableBufferPointer { try reference.read(into: $0) }
        _ = try got.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
        #expect(got == expected)
    }
}
