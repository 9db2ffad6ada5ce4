import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

/// Reads every frame left in `decoder`, `framesPerRead` at a time.
func readAll(_ decoder: any AudioDecoder, framesPerRead: Int = 4096) throws -> [Float] {
    var buffer = [Float](repeating: .nan, count: framesPerRead * decoder.format.channelCount)
    var samples: [Float] = []
    while case let frames = try buffer.withUnsafeMutableBufferPointer({ try decoder.read(into: $0) }), frames > 0 {
        samples += buffer[0..<frames * decoder.format.channelCount]
    }
    return samples
}

/// Checks that `body` throws an InterludeError with `code` whose message names `path`.
func expectError(_ code: InterludeError.Code, naming path: String, sourceLocation: SourceLocation = #_sourceLocation,
                 _ body: () throws -> Void) {
    let error = #expect(throws: InterludeError.self, sourceLocation: sourceLocation) { try body() }
    #expect(error?.code == code, "\(error?.message ?? "no error")", sourceLocation: sourceLocation)
    #expect(error?.message.contains(path) == true, sourceLocation: sourceLocation)
}

@Suite struct WAVDecoderTests {
    typealias F = WAVFixture

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var channelCount: Int
        var expected: [Float]
        var testDescription: String { name }
    }

    static let acceptedCases: [Case] = [
        Case(name: "u8 mono", bytes: F.riff([F.fmt(formatTag: 1, channelCount: 1, bitsPerSample: 8),
                                             F.data(F.unsigned8([0, 128, 255, 64, 192]))]),
             channelCount: 1, expected: [-1, 0, 0.9921875, -0.5, 0.5]),
        Case(name: "u8 stereo", bytes: F.riff([F.fmt(formatTag: 1, channelCount: 2, bitsPerSample: 8),
                                               F.data(F.unsigned8([0, 255, 128, 96]))]),
             channelCount: 2, expected: [-1, 0.9921875, 0, -0.25]),
        Case(name: "s16 mono", bytes: F.riff([F.fmt(formatTag: 1, channelCount: 1, bitsPerSample: 16),
                                              F.data(F.signed16([-32768, 32767, 0, 16384, -1]))]),
             channelCount: 1, expected: [-1, 0.999969482421875, 0, 0.5, -0.000030517578125]),
        Case(name: "s16 stereo", bytes: F.riff([F.fmt(formatTag: 1, channelCount: 2, bitsPerSample: 16),
                                                F.data(F.signed16([-32768, 32767, 8192, -8192]))]),
             channelCount: 2, expected: [-1, 0.999969482421875, 0.25, -0.25]),
        Case(name: "s24 mono", bytes: F.riff([F.fmt(formatTag: 1, channelCount: 1, bitsPerSample: 24),
                                              F.data(F.signed24([-8_388_608, 8_388_607, 1, -1, 4_194_304]))]),
             channelCount: 1, expected: [-1, 0.99999988079071044921875, 0.00000011920928955078125, -0.00000011920928955078125, 0.5]),
        Case(name: "s24 stereo", bytes: F.riff([F.fmt(formatTag: 1, channelCount: 2, bitsPerSample: 24),
                                                F.data(F.signed24([-4_194_304, 2_097_152, 0, -8_388_608]))]),
             channelCount: 2, expected: [-0.5, 0.25, 0, -1]),
        Case(name: "s32 mono", bytes: F.riff([F.fmt(formatTag: 1, channelCount: 1, bitsPerSample: 32),
                                              F.data(F.signed32([Int32.min, 1 << 30, 0, -(1 << 16)]))]),
             channelCount: 1, expected: [-1, 0.5, 0, -0.000030517578125]),
        Case(name: "s32 stereo", bytes: F.riff([F.fmt(formatTag: 1, channelCount: 2, bitsPerSample: 32),
                                                F.data(F.signed32([Int32.max, Int32.min, 1 << 29, 1]))]),
             // Int32.max rounds to 2^31 in Float, so full scale reads as exactly 1.
             channelCount: 2, expected: [1, -1, 0.25, 0.0000000004656612873077392578125]),
        Case(name: "f32 mono", bytes: F.riff([F.fmt(formatTag: 3, channelCount: 1, bitsPerSample: 32),
                                              F.data(F.float32([0.25, -0.75, 1.5, 0]))]),
             channelCount: 1, expected: [0.25, -0.75, 1.5, 0]),
        Case(name: "f32 stereo", bytes: F.riff([F.fmt(formatTag: 3, channelCount: 2, bitsPerSample: 32),
                                                F.data(F.float32([0.1, -0.2, 1, -1]))]),
             channelCount: 2, expected: [0.1, -0.2, 1, -1]),
        Case(name: "extensible s16 stereo", bytes: F.riff([F.fmtExtensible(subformat: 1, channelCount: 2, bitsPerSample: 16),
                                                           F.data(F.signed16([16384, -16384, 32767, -32768]))]),
             channelCount: 2, expected: [0.5, -0.5, 0.999969482421875, -1]),
        Case(name: "extensible s24 mono", bytes: F.riff([F.fmtExtensible(subformat: 1, channelCount: 1, bitsPerSample: 24),
                                                         F.data(F.signed24([2_097_152, -8_388_608]))]),
             channelCount: 1, expected: [0.25, -1]),
        Case(name: "extensible f32 stereo", bytes: F.riff([F.fmtExtensible(subformat: 3, channelCount: 2, bitsPerSample: 32),
                                                           F.data(F.float32([0.5, -0.125, 0, 0.75]))]),
             channelCount: 2, expected: [0.5, -0.125, 0, 0.75]),
        Case(name: "odd LIST before fmt, odd junk between fmt and data", bytes: F.riff([
                F.chunk("LIST", Array("INFOISFT\u{5}\0\0\0Lavf".utf8)), F.fmt(formatTag: 1, channelCount: 1, bitsPerSample: 16),
                F.chunk("junk", [1, 2, 3]), F.data(F.signed16([100, -100]))]),
             channelCount: 1, expected: [0.0030517578125, -0.0030517578125]),
        Case(name: "data before fmt, odd-sized u8 data with pad byte, LIST after", bytes: F.riff([
                F.data(F.unsigned8([0, 64, 128])), F.fmt(formatTag: 1, channelCount: 1, bitsPerSample: 8),
                F.chunk("LIST", [9, 9, 9, 9])]),
             channelCount: 1, expected: [-1, -0.5, 0]),
        Case(name: "trailing partial frame is dropped, wrong RIFF size ignored", bytes: F.riff([
                F.fmt(formatTag: 1, channelCount: 2, bitsPerSample: 16), F.data(F.signed16([16384, 8192, 4096]))], riffSize: 0xFFFF_FFFF),
             channelCount: 2, expected: [0.5, 0.25]),
    ]

    @Test(arguments: acceptedCases)
    func decodesKnownSamples(_ testCase: Case) throws {
        let fixture = try WAVFixture()
        let decoder = try WAVDecoder(path: fixture.write("in.wav", testCase.bytes))
        #expect(decoder.format == AudioFormat(sampleRate: 44_100, channelCount: testCase.channelCount))
        #expect(decoder.frameCount == testCase.expected.count / testCase.channelCount)
        #expect(try readAll(decoder) == testCase.expected)
        // Reading one frame at a time must give the same samples as one big read.
        try decoder.seek(toFrame: 0)
        #expect(try readAll(decoder, framesPerRead: 1) == testCase.expected)
    }

    @Test func readsLongDataIncrementallyAcrossScratchRefills() throws {
        let fixture = try WAVFixture()
        // 100 000 stereo frames is 400 KB of data: several passes through the 64 KB scratch buffer.
        let samples = (0..<200_000).map { Int16(truncatingIfNeeded: $0 &* 7919) }
        let decoder = try WAVDecoder(path: fixture.write("long.wav", F.pcm16File(samples, channelCount: 2, sampleRate: 48_000)))
        #expect(decoder.frameCount == 100_000)
        let decoded = try readAll(decoder, framesPerRead: 30_001)
        #expect(decoded == samples.map { Float($0) / 32768 })
        #expect(decoded.map(PCMConversion.int16(fromFloat:)) == samples)
    }

    @Test func seekRepositionsAndValidatesRange() throws {
        let fixture = try WAVFixture()
        let samples: [Int16] = (0..<20).map { Int16($0 * 1000) }
        let path = try fixture.write("seek.wav", F.pcm16File(samples, channelCount: 2, sampleRate: 22_050))
        let decoder = try WAVDecoder(path: path)
        let all = try readAll(decoder)
        for frame in [0, 3, 9, 10] {
            try decoder.seek(toFrame: frame)
            #expect(try readAll(decoder) == Array(all[(frame * 2)...]))
        }
        for frame in [-1, 11, Int.max] {
            expectError(.invalidArgument, naming: path) { try decoder.seek(toFrame: frame) }
        }
        var tooSmall = [Float](repeating: 0, count: 1)
        expectError(.invalidArgument, naming: path) {
            _ = try tooSmall.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
        }
    }

    // MARK: Bad files

    @Test func missingFileAndDirectory() throws {
        let fixture = try WAVFixture()
        let missing = fixture.path("missing.wav")
        expectError(.fileNotFound, naming: missing) { _ = try WAVDecoder(path: missing) }
        let directory = fixture.directory.path
        expectError(.unreadableFile, naming: directory) { _ = try WAVDecoder(path: directory) }
    }

    @Test func emptyFile() throws {
        let fixture = try WAVFixture()
        let path = try fixture.write("empty.wav", [])
        expectError(.corruptData, naming: path) { _ = try WAVDecoder(path: path) }
    }

    @Test func truncationAtEveryByteIsCorrupt() throws {
        let fixture = try WAVFixture()
        let full = F.riff([F.chunk("LIST", Array("INFOabcd".utf8)), F.fmt(formatTag: 1, channelCount: 2, bitsPerSample: 16),
                           F.chunk("odd ", [1]), F.data(F.signed16([1, 2, 3, 4, 5, 6]))])
        #expect(try readAll(WAVDecoder(path: fixture.write("full.wav", full))).count == 6)
        // Every prefix cuts a header or chunk (the data chunk is last, so there is no clean cut).
        for cut in 0..<full.count {
            let path = try fixture.write("cut-\(cut).wav", Array(full.prefix(cut)))
            expectError(.corruptData, naming: path) { _ = try WAVDecoder(path: path) }
        }
    }

    @Test func missingPadByteAfterLastChunkIsAccepted() throws {
        let fixture = try WAVFixture()
        let bytes = F.riff([F.fmt(formatTag: 1, channelCount: 1, bitsPerSample: 8), F.data([0, 128, 192])]).dropLast()
        #expect(try readAll(WAVDecoder(path: fixture.write("nopad.wav", Array(bytes)))) == [-1, 0, 0.5])
    }

    @Test func shrinkingFileAfterOpenIsCorruptOnRead() throws {
        let fixture = try WAVFixture()
        // Larger than stdio's buffer, so the cut-off part has not been read ahead at open.
        let path = try fixture.write("shrink.wav", F.pcm16File([Int16](repeating: 7, count: 100_000), channelCount: 1, sampleRate: 8000))
        let decoder = try WAVDecoder(path: path)
        #expect(truncate(path, 100_000) == 0)
        expectError(.corruptData, naming: path) { _ = try readAll(decoder) }
    }

    static let corruptFiles: [(String, [UInt8])] = [
        ("wrong RIFF magic", Array("JUNK".utf8) + F.pcm16File([1], channelCount: 1, sampleRate: 8000).dropFirst(4)),
        ("wrong WAVE magic", F.pcm16File([1], channelCount: 1, sampleRate: 8000).prefix(8) + Array("AVI ".utf8)
            + F.pcm16File([1], channelCount: 1, sampleRate: 8000).dropFirst(12)),
        ("text file", Array("this is not a wave file at all, just text\n".utf8)),
        ("4 GB data chunk in a tiny file", F.riff([F.fmt(formatTag: 1, channelCount: 1, bitsPerSample: 16),
                                                   F.data([0, 0], declaredSize: 0xFFFF_FFFF)])),
        ("4 GB unknown chunk", F.riff([F.chunk("LIST", [0, 0], declaredSize: 0xFFFF_FFF0),
                                      F.fmt(formatTag: 1, channelCount: 1, bitsPerSample: 16), F.data([0, 0])])),
        ("4 GB fmt chunk", F.riff([F.chunk("fmt ", [UInt8](repeating: 1, count: 16), declaredSize: 0xFFFF_FFFF)])),
        ("data one byte longer than the file", F.riff([F.fmt(formatTag: 1, channelCount: 1, bitsPerSample: 16),
                                                      F.data([0, 0, 0, 0], declaredSize: 5)])),
        ("no fmt chunk", F.riff([F.data(F.signed16([1, 2]))])),
        ("no data chunk", F.riff([F.fmt(formatTag: 1, channelCount: 1, bitsPerSample: 16), F.chunk("LIST", [1, 2])])),
        ("zero channels", F.riff([F.fmt(formatTag: 1, channelCount: 0, bitsPerSample: 16, blockAlign: 2), F.data([0, 0])])),
        ("zero sample rate", F.riff([F.fmt(formatTag: 1, channelCount: 1, sampleRate: 0, bitsPerSample: 16), F.data([0, 0])])),
        ("block align mismatch", F.riff([F.fmt(formatTag: 1, channelCount: 2, bitsPerSample: 16, blockAlign: 3), F.data([0, 0, 0, 0])])),
        ("fmt chunk too short", F.riff([F.chunk("fmt ", [1, 0, 1, 0, 0x44, 0xAC, 0, 0]), F.data([0, 0])])),
        ("extensible fmt too short", F.riff([Array(F.fmtExtensible(subformat: 1, channelCount: 1, bitsPerSample: 16)
            .enumerated().map { $0.offset == 4 ? 18 : $0.element }.prefix(8 + 18)), F.data([0, 0])])),
    ]

    @Test(arguments: corruptFiles.map(\.0))
    func corruptFileIsCorruptData(_ name: String) throws {
        let bytes = try #require(Self.corruptFiles.first { $0.0 == name }).1
        let fixture = try WAVFixture()
        let path = try fixture.write("corrupt.wav", bytes)
        expectError(.corruptData, naming: path) { _ = try WAVDecoder(path: path) }
    }

    static let unsupportedFiles: [(String, [UInt8], String)] = [
        ("MS ADPCM", F.riff([F.fmt(formatTag: 2, channelCount: 1, bitsPerSample: 4, blockAlign: 256), F.data([0, 0])]), "0x0002"),
        ("mu-law", F.riff([F.fmt(formatTag: 7, channelCount: 1, bitsPerSample: 8), F.data([0, 0])]), "0x0007"),
        ("3 channels", F.riff([F.fmt(formatTag: 1, channelCount: 3, bitsPerSample: 16), F.data([0, 0, 0, 0, 0, 0])]), "3 channels"),
        ("12-bit PCM", F.riff([F.fmt(formatTag: 1, channelCount: 1, bitsPerSample: 12), F.data([0, 0])]), "12-bit"),
        ("64-bit float", F.riff([F.fmt(formatTag: 3, channelCount: 1, bitsPerSample: 64), F.data([0, 0, 0, 0, 0, 0, 0, 0])]), "64-bit"),
        ("extensible unknown GUID", F.riff([F.fmtExtensible(subformat: 1, channelCount: 1, bitsPerSample: 16,
                                                            guidTail: [UInt8](repeating: 7, count: 14)), F.data([0, 0])]), "GUID"),
        ("extensible ADPCM", F.riff([F.fmtExtensible(subformat: 2, channelCount: 1, bitsPerSample: 16), F.data([0, 0])]), "0x0002"),
        ("big-endian RIFX", Array("RIFX".utf8) + Array(F.pcm16File([1], channelCount: 1, sampleRate: 8000).dropFirst(4)), "RIFX"),
    ]

    @Test(arguments: unsupportedFiles.map(\.0))
    func unsupportedFileNamesTheFormat(_ name: String) throws {
        let (_, bytes, detail) = try #require(Self.unsupportedFiles.first { $0.0 == name })
        let fixture = try WAVFixture()
        let path = try fixture.write("unsupported.wav", bytes)
        let error = #expect(throws: InterludeError.self) { try WAVDecoder(path: path) }
        #expect(error?.code == .unsupportedFormat, "\(error?.message ?? "")")
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains(detail) == true, "\(error?.message ?? "")")
    }
}
