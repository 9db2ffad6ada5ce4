import Foundation
import Testing

@testable import Interlude
@testable import InterludeScene

@Suite("WAVFileWriter")
struct WAVFileWriterTests {
    /// A fresh empty folder, removed when the test's closure returns.
    private func withTemporaryFolder(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("WAVFileWriterTests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    private func contents(of folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    private func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    private func tag(_ bytes: [UInt8], at offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    /// Asserts the canonical 44-byte header and returns the data chunk's bytes.
    private func checkHeader(
        _ bytes: [UInt8], formatTag: UInt16, channelCount: Int, sampleRate: Int, bitsPerSample: Int
    ) -> ArraySlice<UInt8> {
        let blockAlign = channelCount * bitsPerSample / 8
        #expect(tag(bytes, at: 0) == "RIFF")
        #expect(uint32(bytes, at: 4) == UInt32(bytes.count - 8))
        #expect(tag(bytes, at: 8) == "WAVE")
        #expect(tag(bytes, at: 12) == "fmt ")
        #expect(uint32(bytes, at: 16) == 16)
        #expect(uint16(bytes, at: 20) == formatTag)
        #expect(uint16(bytes, at: 22) == UInt16(channelCount))
        #expect(uint32(bytes, at: 24) == UInt32(sampleRate))
        #expect(uint32(bytes, at: 28) == UInt32(sampleRate * blockAlign))
        #expect(uint16(bytes, at: 32) == UInt16(blockAlign))
        #expect(uint16(bytes, at: 34) == UInt16(bitsPerSample))
        #expect(tag(bytes, at: 36) == "data")
        #expect(uint32(bytes, at: 40) == UInt32(bytes.count - 44))
        return bytes[44...]
    }

    @Test("int16: header, rounding to nearest and clipping, written in chunks")
    func int16SamplesRoundAndClip() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/stereo.wav"
            let step: Float = 1 / 32768
            // (input, expected) pairs; lrintf rounds halves to even.
            let cases: [(Float, Int16)] = [
                (0, 0), (0.5, 16384), (-0.5, -16384), (1, 32767), (-1, -32768),
                (1.5, 32767), (-1.5, -32768), (0.4 * step, 0), (0.6 * step, 1), (-0.6 * step, -1),
                (100.4 * step, 100), (100.6 * step, 101), (1.5 * step, 2), (2.5 * step, 2),
            ]
            let writer = try WAVFileWriter(
                path: path, format: AudioFormat(sampleRate: 48000, channelCount: 2), sampleType: .int16)
            try writer.append(cases[..<6].map(\.0))
            try writer.append(cases[6...].map(\.0))
            #expect(writer.frameCount == 7)
            #expect(!FileManager.default.fileExists(atPath: path), "nothing appears before finish()")
            try writer.finish()

            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(bytes.count == 44 + cases.count * 2)
            let data = checkHeader(bytes, formatTag: 1, channelCount: 2, sampleRate: 48000, bitsPerSample: 16)
            let samples = stride(from: data.startIndex, to: data.endIndex, by: 2).map {
                Int16(bitPattern: uint16(bytes, at: $0))
            }
            #expect(samples == cases.map(\.1))
            #expect(try contents(of: folder) == ["stereo.wav"])
        }
    }

    @Test("float32: sox reads the header without a warning, and the samples back exactly")
    func float32HeaderSatisfiesSox() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/stereo.wav"
            let samples: [Float] = (0..<4_800).map { Float(sin(Double($0) * 0.05) * 0.5) }
            try WAVFileWriter.write(samples: samples, format: AudioFormat(sampleRate: 48000, channelCount: 2),
                                    sampleType: .float32, to: path)
            let reportPath = folder + "/sox.txt"
            let descriptor = open(reportPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            defer { close(descriptor) }
            let child = try ChildProcess(["sox", "-V2", path, "-n", "stat"], environment: ProcessInfo.processInfo.environment,
                                         stdout: descriptor, stderr: descriptor)
            #expect(child.waitForExit(timeoutSeconds: 60))
            #expect(child.status == 0)
            let report = try String(contentsOfFile: reportPath, encoding: .utf8)
            #expect(!report.contains("WARN"), "sox: \(report)")
            #expect(report.contains("Samples read:") && report.contains("4800"), "sox: \(report)")
        }
    }

    @Test("float32: format tag 3 and exact sample bits")
    func float32SamplesAreExact() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/mono.wav"
            let samples: [Float] = [0, 0.25, -1.5, 1e-7, .pi, -0.0]
            try WAVFileWriter.write(
                samples: samples, format: AudioFormat(sampleRate: 44100, channelCount: 1),
                sampleType: .float32, to: path)

            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            // Not PCM, so the header the format specifies: an 18-byte fmt chunk with cbSize 0, and
            // a fact chunk with the frame count (sox warns without them).
            #expect(bytes.count == 58 + samples.count * 4)
            #expect(tag(bytes, at: 0) == "RIFF")
            #expect(uint32(bytes, at: 4) == UInt32(bytes.count - 8))
            #expect(tag(bytes, at: 12) == "fmt ")
            #expect(uint32(bytes, at: 16) == 18)
            #expect(uint16(bytes, at: 20) == 3)
            #expect(uint16(bytes, at: 22) == 1)
            #expect(uint32(bytes, at: 24) == 44100)
            #expect(uint32(bytes, at: 28) == 44100 * 4)
            #expect(uint16(bytes, at: 32) == 4)
            #expect(uint16(bytes, at: 34) == 32)
            #expect(uint16(bytes, at: 36) == 0)
            #expect(tag(bytes, at: 38) == "fact")
            #expect(uint32(bytes, at: 42) == 4)
            #expect(uint32(bytes, at: 46) == UInt32(samples.count))
            #expect(tag(bytes, at: 50) == "data")
            #expect(uint32(bytes, at: 54) == UInt32(samples.count * 4))
            let data = bytes[58...]
            let readBack = stride(from: data.startIndex, to: data.endIndex, by: 4).map {
                uint32(bytes, at: $0)
            }
            #expect(readBack == samples.map(\.bitPattern))
        }
    }

    @Test("discard() and an unfinished writer's deinit leave nothing in the folder")
    func discardLeavesNoFiles() throws {
        try withTemporaryFolder { folder in
            let format = AudioFormat(sampleRate: 44100, channelCount: 1)
            let writer = try WAVFileWriter(path: folder + "/a.wav", format: format, sampleType: .int16)
            try writer.append([0.1, 0.2, 0.3])
            let during = try contents(of: folder)
            #expect(during.count == 1 && during[0].hasPrefix(".a.wav."), "a hidden temporary file beside the destination")
            writer.discard()
            #expect(try contents(of: folder).isEmpty)
            #expect(throws: InterludeError.self) { try writer.finish() }

            func abandon() throws {
                let abandoned = try WAVFileWriter(path: folder + "/b.wav", format: format, sampleType: .float32)
                try abandoned.append([0.5])
            }
            try abandon()
            #expect(try contents(of: folder).isEmpty)
        }
    }

    @Test("finish() replaces an existing file; the writer cannot be reused")
    func finishReplacesAndCloses() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/take.wav"
            try Data("old".utf8).write(to: URL(fileURLWithPath: path))
            let writer = try WAVFileWriter(
                path: path, format: AudioFormat(sampleRate: 44100, channelCount: 1), sampleType: .int16)
            try writer.append([0.5])
            try writer.finish()
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 46)
            let error = #expect(throws: InterludeError.self) { try writer.append([0.5]) }
            #expect(error?.code == .writeFailed)
            #expect(try contents(of: folder) == ["take.wav"])
        }
    }

    @Test("a partial frame is rejected without harming the file")
    func partialFrameIsRejected() throws {
        try withTemporaryFolder { folder in
            let writer = try WAVFileWriter(
                path: folder + "/s.wav", format: AudioFormat(sampleRate: 44100, channelCount: 2), sampleType: .int16)
            let error = #expect(throws: InterludeError.self) { try writer.append([0.1, 0.2, 0.3]) }
            #expect(error?.code == .invalidArgument)
            try writer.append([0.1, 0.2])
            try writer.finish()
            #expect(writer.frameCount == 1)
        }
    }

    @Test("a missing folder throws .writeFailed naming the path")
    func missingFolderThrows() throws {
        let path = "/nonexistent-\(UUID().uuidString)/out.wav"
        let error = #expect(throws: InterludeError.self) {
            try WAVFileWriter.write(
                samples: [0], format: AudioFormat(sampleRate: 44100, channelCount: 1), sampleType: .int16, to: path)
        }
        #expect(error?.code == .writeFailed)
        #expect(error?.message.contains(path) == true)
    }
}
