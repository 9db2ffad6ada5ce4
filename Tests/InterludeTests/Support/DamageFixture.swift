import Foundation
@testable import Interlude
@testable import InterludeScene

/// A 6 s stereo tone made by a real encoder, and a copy with 400 bytes overwritten: the damage
/// found in real game files. Shared by the damaged Vorbis, Opus and FLAC tests.
enum DamageFixture {
    static let rate = 48_000
    static let seconds = 6

    /// Writes the tone (as `sampleType`), encodes it with `encode(wav, output)` into
    /// `intact.EXTENSION`, and writes a copy with 400 bytes at `fraction` of its length overwritten.
    static func files(_ folder: StreamFixtureFolder, fileExtension: String, at fraction: Double = 0.5,
                      sampleType: WAVSampleType = .float32,
                      encode: (_ wav: String, _ output: String) throws -> Void) throws -> (intact: String, damaged: String) {
        let wav = try folder.writeWAV("tone.wav", StreamTone.stereo(440, frameCount: seconds * rate), sampleType: sampleType)
        let intact = folder.path("intact.\(fileExtension)")
        try encode(wav, intact)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: intact)))
        let damageStart = Int(Double(bytes.count) * fraction)
        for index in damageStart..<(damageStart + 400) { bytes[index] = UInt8(truncatingIfNeeded: index &* 97 &+ 13) }
        let damaged = folder.path("damaged.\(fileExtension)")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        return (intact, damaged)
    }

    /// Every frame `decoder` reads, `framesPerRead` at a time.
    static func readAll(_ decoder: any AudioDecoder, framesPerRead: Int) throws -> [Float] {
        var all: [Float] = []
        var buffer = [Float](repeating: 0, count: framesPerRead * decoder.format.channelCount)
        while true {
            let frames = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
            if frames == 0 { return all }
            all += buffer[0..<(frames * decoder.format.channelCount)]
        }
    }

    /// 1,000 frames read at `target` after a seek: from `intact`, and from `damaged` once it has
    /// been read to its end (so the seek starts from past the damage).
    static func framesAfterSeek(intact: any AudioDecoder, damaged: any AudioDecoder, to target: Int) throws -> (expected: [Float], got: [Float]) {
        try intact.seek(toFrame: target)
        _ = try readAll(damaged, framesPerRead: 512)
        try damaged.seek(toFrame: target)
        var expected = [Float](repeating: 0, count: 2_000)
        var got = [Float](repeating: 0, count: 2_000)
        _ = try expected.withUnsafeMutableBufferPointer { try intact.read(into: $0) }
        _ = try got.withUnsafeMutableBufferPointer { try damaged.read(into: $0) }
        return (expected, got)
    }
}
