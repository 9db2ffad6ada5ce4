import Foundation
import Testing
@testable import Interlude

/// The same damage in a FLAC file (flac, default settings): libFLAC loses sync in the damaged
/// frame and finds the next one; the decoder reads the lost frames as silence from the next
/// frame's sample number, as `flac -d -F` and sox go on, with every later frame in place.
@Suite struct DamagedFLACTests {
    static let rate = DamagedOggTests.rate
    static let seconds = DamagedOggTests.seconds

    /// A 6 s stereo tone encoded by flac, and a copy with 400 bytes at `fraction` of it overwritten.
    static func files(_ folder: StreamFixtureFolder, at fraction: Double = 0.5) throws -> (intact: String, damaged: String) {
        let wav = try folder.writeWAV("tone.wav", StreamTone.stereo(440, frameCount: seconds * rate), sampleType: .int16)
        let intact = folder.path("intact.flac")
        try Codec.flac.encode(wav, to: intact)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: intact)))
        let damageStart = Int(Double(bytes.count) * fraction)
        for index in damageStart..<(damageStart + 400) { bytes[index] = UInt8(truncatingIfNeeded: index &* 97 &+ 13) }
        let damaged = folder.path("damaged.flac")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        return (intact, damaged)
    }

    @Test(arguments: [4_096, 100, 1])
    func theDamageIsReadAsSilenceAndLaterFramesKeepTheirPlace(framesPerRead: Int) throws {
        let folder = try StreamFixtureFolder()
        let (intact, damaged) = try Self.files(folder)
        let reference = try DamagedOggTests.readAll(FLACDecoder(path: intact), framesPerRead: 4_096)
        let decoder = try FLACDecoder(path: damaged)
        let samples = try DamagedOggTests.readAll(decoder, framesPerRead: framesPerRead)
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
        let target = 5 * Self.rate + 123
        let reference = try FLACDecoder(path: intact)
        try reference.seek(toFrame: target)
        let decoder = try FLACDecoder(path: damaged)
        _ = try DamagedOggTests.readAll(decoder, framesPerRead: 512)
        try decoder.seek(toFrame: target)
        var expected = [Float](repeating: 0, count: 2_000)
        var got = [Float](repeating: 0, count: 2_000)
        _ = try expected.withUnsafeMutableBufferPointer { try reference.read(into: $0) }
        _ = try got.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
        #expect(got == expected)
    }

    /// Damage in the first half second: the rest still plays, in place.
    @Test func damageAtTheStartIsSteppedOverToo() throws {
        let folder = try StreamFixtureFolder()
        let (intact, damaged) = try Self.files(folder, at: 0.1)
        let reference = try DamagedOggTests.readAll(FLACDecoder(path: intact), framesPerRead: 4_096)
        let decoder = try FLACDecoder(path: damaged)
        let samples = try DamagedOggTests.readAll(decoder, framesPerRead: 4_096)
        #expect(samples.count == reference.count)
        #expect(decoder.skippedFrameCount > 0)
        let tail = (samples.count / 2 - Self.rate) * 2
        #expect(Array(samples[tail...]) == Array(reference[tail...]))
    }
}
