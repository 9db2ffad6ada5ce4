import Foundation
import Testing
@_spi(Tools) @testable import Interlude
@testable import InterludeScene

@Suite struct VorbisDecoderTests {
    static let sampleRate = 48_000

    /// A 3-second stereo sine sweep: left rises 100 Hz -> 8 kHz, right falls 6 kHz -> 200 Hz.
    static func sweep() -> [Int16] {
        let frameCount = 3 * sampleRate
        let seconds = Double(frameCount) / Double(sampleRate)
        func phase(_ time: Double, from start: Double, to end: Double) -> Double {
            2 * .pi * (start * time + (end - start) * time * time / (2 * seconds))
        }
        return (0..<frameCount).flatMap { frame -> [Int16] in
            let time = Double(frame) / Double(sampleRate)
            return [Int16(16_000 * sin(phase(time, from: 100, to: 8000))),
                    Int16(12_000 * sin(phase(time, from: 6000, to: 200)))]
        }
    }

    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-Q"] + arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) \(arguments) failed")
    }

    /// Writes the sweep as WAV and encodes it with oggenc; returns the .ogg path.
    static func encodeSweep(in fixture: WAVFixture) throws -> String {
        let wav = try fixture.write("sweep.wav", WAVFixture.pcm16File(sweep(), channelCount: 2, sampleRate: UInt32(sampleRate)))
        let ogg = fixture.path("sweep.ogg")
        try run("/usr/bin/oggenc", ["-q", "4", "-o", ogg, wav])
        return ogg
    }

    @Test func matchesOggdecWithinOneLSB() throws {
        let fixture = try WAVFixture()
        let ogg = try Self.encodeSweep(in: fixture)
        let reference = fixture.path("oggdec.wav")
        try Self.run("/usr/bin/oggdec", ["-o", reference, ogg])
        let expected = try readAll(WAVDecoder(path: reference)).map(PCMConversion.int16(fromFloat:))

        let decoder = try VorbisDecoder(path: ogg)
        #expect(decoder.format == AudioFormat(sampleRate: Self.sampleRate, channelCount: 2))
        #expect(decoder.frameCount == 3 * Self.sampleRate)
        let decoded = try readAll(decoder, framesPerRead: 1000).map(PCMConversion.int16(fromFloat:))
        #expect(decoded.count == expected.count)
        let worst = zip(decoded, expected).map { abs(Int($0) - Int($1)) }.max() ?? .max
        #expect(worst <= 1)
        // The sweep really is in there: the loud left channel peaks near its 16 000 amplitude.
        let leftPeak = stride(from: 0, to: decoded.count, by: 2).map { abs(Int(decoded[$0])) }.max() ?? 0
        #expect((15_000...17_500).contains(leftPeak))
    }

    @Test func seekGivesTheSameSamplesAsReadingThrough() throws {
        let fixture = try WAVFixture()
        let decoder = try VorbisDecoder(path: Self.encodeSweep(in: fixture))
        let straight = try readAll(decoder)
        #expect(straight.count == decoder.frameCount * 2)
        for frame in [0, 1, 4095, 48_007, 100_000, decoder.frameCount - 300, decoder.frameCount] {
            try decoder.seek(toFrame: frame)
            let after = try readAll(decoder, framesPerRead: 777)
            #expect(after.count == (decoder.frameCount - frame) * 2)
            let worst = zip(after, straight[(frame * 2)...]).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= 1e-6, "seek to \(frame)")
        }
        for frame in [-1, decoder.frameCount + 1] {
            expectError(.invalidArgument, naming: decoder.path) { try decoder.seek(toFrame: frame) }
        }
        var halfFrame = [Float](repeating: 0, count: 1)
        expectError(.invalidArgument, naming: decoder.path) {
            _ = try halfFrame.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
        }
    }

    @Test func monoStreamDecodes() throws {
        let fixture = try WAVFixture()
        let tone = (0..<24_000).map { Int16(8000 * sin(2 * Double.pi * 440 * Double($0) / 24_000)) }
        let wav = try fixture.write("mono.wav", WAVFixture.pcm16File(tone, channelCount: 1, sampleRate: 24_000))
        let ogg = fixture.path("mono.ogg")
        try Self.run("/usr/bin/oggenc", ["-q", "4", "-o", ogg, wav])
        let decoder = try VorbisDecoder(path: ogg)
        #expect(decoder.format == AudioFormat(sampleRate: 24_000, channelCount: 1))
        let decoded = try readAll(decoder)
        #expect(decoded.count == 24_000)
        // 440 Hz over one second crosses zero about 880 times.
        let crossings = zip(decoded, decoded.dropFirst()).filter { $0 < 0 && $1 >= 0 || $0 >= 0 && $1 < 0 }.count
        #expect((870...890).contains(crossings))
    }

    @Test func threeChannelStreamIsUnsupported() throws {
        let fixture = try WAVFixture()
        let wav = try fixture.write("three.wav", WAVFixture.pcm16File([Int16](repeating: 100, count: 3 * 8000), channelCount: 3, sampleRate: 8000))
        let ogg = fixture.path("three.ogg")
        try Self.run("/usr/bin/oggenc", ["-q", "4", "-o", ogg, wav])
        expectError(.unsupportedFormat, naming: ogg) { _ = try VorbisDecoder(path: ogg) }
    }

    @Test func corruptPageIsSteppedOver() throws {
        let fixture = try WAVFixture()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.encodeSweep(in: fixture))))
        for index in bytes.count / 2..<bytes.count / 2 + 64 { bytes[index] ^= 0x5A }
        let path = try fixture.write("corrupt.ogg", bytes)
        let decoder = try VorbisDecoder(path: path)
        #expect(try readAll(decoder).count == decoder.frameCount * decoder.format.channelCount)
        #expect(decoder.skippedFrameCount > 0)
    }

    @Test(arguments: [0.3, 0.6, 0.99])
    func truncatedStreamIsCorruptData(keptFraction: Double) throws {
        let fixture = try WAVFixture()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.encodeSweep(in: fixture))))
        let path = try fixture.write("truncated.ogg", Array(bytes.prefix(Int(Double(bytes.count) * keptFraction))))
        expectError(.corruptData, naming: path) { _ = try readAll(VorbisDecoder(path: path)) }
    }

    @Test func truncatedInsideTheHeadersIsCorruptData() throws {
        let fixture = try WAVFixture()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.encodeSweep(in: fixture))))
        for cut in [5, 28, 60, 200, 1000] {
            let path = try fixture.write("head-\(cut).ogg", Array(bytes.prefix(cut)))
            expectError(.corruptData, naming: path) { _ = try VorbisDecoder(path: path) }
        }
    }

    @Test func textFileNamedOggIsUnsupported() throws {
        let fixture = try WAVFixture()
        let path = try fixture.write("notes.ogg", Array("These are my notes, not a song.\n".utf8))
        expectError(.unsupportedFormat, naming: path) { _ = try VorbisDecoder(path: path) }
        expectError(.unsupportedFormat, naming: path) { _ = try DecoderFactory.open(path: path) }
    }

    @Test func missingFileIsFileNotFound() throws {
        let fixture = try WAVFixture()
        let path = fixture.path("gone.ogg")
        expectError(.fileNotFound, naming: path) { _ = try VorbisDecoder(path: path) }
    }
}
