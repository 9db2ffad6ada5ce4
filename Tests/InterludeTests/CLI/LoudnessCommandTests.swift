import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

/// `interlude` as a subprocess on loudness: `info` prints a file's integrated loudness and true
/// peak, and `render` refuses a bad version 3 scene with one line naming the file and the event.
@Suite struct LoudnessCommandTests {
    /// The number in `line` after `prefix`, up to the next space.
    static func number(in output: String, after prefix: String) -> Double? {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return nil }
        return Double(line.dropFirst(prefix.count).split(separator: " ").first ?? "")
    }

    @Test func infoPrintsTheLoudnessOfAFullScaleSine() throws {
        let folder = try ScratchFolder(prefix: "interlude-loudness-cli")
        // A full-scale 1 kHz sine, mono: -3.01 LUFS by BS.1770's definition, a true peak of 0 dBTP.
        let samples = (0..<(5 * 48_000)).map { Float(sin(2 * Double.pi * 1000 * Double($0) / 48_000)) }
        let path = folder.path("sine.wav")
        try WAVFileWriter.write(samples: samples, format: AudioFormat(sampleRate: 48_000, channelCount: 1), sampleType: .float32, to: path)
        let run = try RenderCommandTests.run(["info", path])
        #expect(run.status == 0, "\(run.standardError)")
        let loudness = try #require(Self.number(in: run.standardOutput, after: "Loudness: "), "\(run.standardOutput)")
        #expect(abs(loudness - -3.01) <= 0.1, "\(run.standardOutput)")
        #expect(run.standardOutput.contains("LUFS integrated (EBU R128)"))
        let truePeak = try #require(Self.number(in: run.standardOutput, after: "True peak: "), "\(run.standardOutput)")
        #expect(abs(truePeak) <= 0.1, "\(run.standardOutput)")

        // 20 dB quieter reads 20 LU lower.
        let quiet = folder.path("quiet.wav")
        try WAVFileWriter.write(samples: samples.map { $0 * 0.1 }, format: AudioFormat(sampleRate: 48_000, channelCount: 1),
                                sampleType: .float32, to: quiet)
        let quieter = try #require(Self.number(in: try RenderCommandTests.run(["info", quiet]).standardOutput, after: "Loudness: "))
        #expect(abs(quieter - -23.01) <= 0.1)
    }

    @Test func renderRefusesALoudnessOutOfRangeNamingTheFileAndTheEvent() throws {
        let folder = try RenderCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try RenderCommandTests.write("""
            { "duration": 1, "sounds": { "theme": "\(TestPaths.asset("music/theme.ogg"))" },
              "events": [ { "at": 0, "do": "music.stop" }, { "at": 0.5, "do": "music.play", "sound": "theme", "loudness": -80 } ] }
            """, to: folder)
        let output = folder.appendingPathComponent("out.wav")
        let run = try RenderCommandTests.run(["render", scene.path, "--output", output.path])
        #expect(run.status != 0)
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(run.standardError)")
        #expect(run.standardError.contains("scene.json: event 1 (music.play)"), "\(run.standardError)")
        #expect(run.standardError.contains("loudness"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
