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
