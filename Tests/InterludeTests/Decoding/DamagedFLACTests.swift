import Foundation
import Testing
@testable import Interlude

/// The same damage in a FLAC file (flac, default settings): libFLAC loses sync in the damaged
/// frame and finds the next one; the decoder reads the lost frames as silence from the next
/// frame's sample number, as `flac -d -F` and sox go on, with every later frame in place.
@Suite struct DamagedFLACTests {
    static let rate = DamageFixture.rate
    static let seconds = DamageFixture.seconds

    /// A 6 s stereo tone (16-bit) encoded by flac, and a copy with 400 bytes at `fraction` of
    /// it overwritten.
    static func files(_ folder: StreamFixtureFolder, at fraction: Double = 0.5) throws -> (intact: String, damaged: String) {
        try DamageFixture.files(folder, fileExtension: "flac", at: fraction, sampleType: .int16) { try Codec.flac.encode($0, to: $1) }
    }

    @Test(arguments: [4_096, 100, 1])
    func theDamageIsReadAsSilenceAndLaterFramesKeepTheirPlace(framesPerRead: Int) throws {
        let folder = try StreamFixtureFolder()
        let (intact, damaged) = try Self.files(folder)
        let reference = try DamageFixture.readAll(FLACDecoder(path: intact), framesPerRead: 4_096)
        let decoder = try FLACDecoder(path: damaged)
        let samples = try DamageFixture.readAll(decoder, framesPerRead: framesPerRead)
        #expect(decoder.frameCount == Self.seconds * Self.rate)
        #expect(samples.count == reference.count, "the stream ended at the damage, or its frames moved")
        // 400 bytes lie in one or two FLAC frames of 4 096 samples.
        #expect(decoder.skippedFrameCount > 0 && decoder.skippedFrameCount <= 3 * 4_096, "skipped \(decoder.skippedFrameCount) frames")
        let frames = samples.count / 2
        let differing = (0..<frames).filter { (frame: Int) -> Bool in
            let left = samples[2 * frame] != reference[2 * frame]
            let right = samples[2 * frame + 1] != reference[2 * frame + 1]
            return left || right
        }
        // Lossless: every frame outside the lost ones is the intact file's, and the lost ones are silence.
        #expect(differing.count <= decoder.skippedFrameCount)
        #expect(differing.allSatisfy { samples[2 * $0] == 0 && samples[2 * $0 + 1] == 0 })
    }

    @Test func aSeekAfterTheDamageLandsOnTheExactFrame() throws {
        let folder = try StreamFixtureFolder()
        let (intact, damaged) = try Self.files(folder)
        let read = try DamageFixture.framesAfterSeek(intact: FLACDecoder(path: intact), damaged: FLACDecoder(path: damaged), to: 5 * Self.rate + 123)
        #expect(read.got == read.expected)
    }

    /// A frame cut out of the file cleanly (no damaged bytes, so libFLAC reports nothing): it
    /// sees the gap in the frame numbers and writes silence for it, and for the frame after,
    /// in one call; the decoder reads that silence in place and goes on.
    @Test func aFrameCutOutIsReadAsSilenceInPlace() throws {
        let folder = try StreamFixtureFolder()
        let (intact, _) = try Self.files(folder)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: intact)))
        // Fixed-blocksize frame headers: FF F8, two bytes the same in every frame, then the frame
        // number (one byte below 128).
        let first = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xF8 })
        func frameStart(_ number: UInt8) -> Int? {
            (first..<(bytes.count - 5)).first { index in
                bytes[index] == 0xFF && bytes[index + 1] == 0xF8 && bytes[index + 2] == bytes[first + 2]
                    && bytes[index + 3] == bytes[first + 3] && bytes[index + 4] == number
            }
        }
        let cutStart = try #require(frameStart(31))
        let cutEnd = try #require(frameStart(32))
        bytes.removeSubrange(cutStart..<cutEnd)
        let cut = folder.path("cut.flac")
        try Data(bytes).write(to: URL(fileURLWithPath: cut))
        let reference = try DamageFixture.readAll(FLACDecoder(path: intact), framesPerRead: 4_096)
        let decoder = try FLACDecoder(path: cut)
        let samples = try DamageFixture.readAll(decoder, framesPerRead: 1_000)
        #expect(samples.count == reference.count)
        #expect(decoder.skippedFrameCount >= 4_096)
        let missing = 31 * 4_096..<32 * 4_096
        #expect(samples[(2 * missing.lowerBound)..<(2 * missing.upperBound)].allSatisfy { $0 == 0 }, "the cut frame is silence")
        let tail = (samples.count / 2 - 2 * Self.rate) * 2
        #expect(Array(samples[tail...]) == Array(reference[tail...]), "the frames after the cut are in place")
    }

    /// Damage in the first half second: the rest still plays, in place.
    @Test func damageAtTheStartIsSteppedOverToo() throws {
        let folder = try StreamFixtureFolder()
        let (intact, damaged) = try Self.files(folder, at: 0.1)
        let reference = try DamageFixture.readAll(FLACDecoder(path: intact), framesPerRead: 4_096)
        let decoder = try FLACDecoder(path: damaged)
        let samples = try DamageFixture.readAll(decoder, framesPerRead: 4_096)
        #expect(samples.count == reference.count)
        #expect(decoder.skippedFrameCount > 0)
        let tail = (samples.count / 2 - Self.rate) * 2
        #expect(Array(samples[tail...]) == Array(reference[tail...]))
    }
}
