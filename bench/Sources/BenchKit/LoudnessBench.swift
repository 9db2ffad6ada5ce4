import Foundation
@_spi(Tools) import Interlude

/// Scenario 21: the loudness of a track, as a loudness target measures it once before the track
/// starts (off the engine lock): libebur128's integrated loudness (BS.1770-4 / EBU R128, gated)
/// over the bench's stereo 48 kHz track, already decoded, and the whole measurement of the file as
/// `measureLoudness(ofTrackAt:)` does it, decoding included, for the 16-bit WAV and the Ogg Vorbis
/// track. The goal (<= 0.1 s for 3 minutes) is the wall time a caller waits for the figure; the
/// CPU time beside it is the work, spread over the cores by the meter's segments.
public enum LoudnessBench {
    /// The analysis rows (wall, with the goal, and CPU) and one row per file in CPU seconds
    /// (medians of `rounds`).
    public static func rows(seconds: Double, rounds: Int) throws -> [BenchRow] {
        let wav = try BenchAssets.wavTrack(seconds: seconds)
        let ogg = try BenchAssets.track(seconds: seconds)
        let decoded = try DecoderFactory.decodeAll(path: wav)
        let minutes = seconds / 60
        let length = minutes == minutes.rounded() ? "\(Int(minutes)) min" : "\(Int(seconds)) s"
        var wall: [Double] = []
        var analysis: [Double] = []
        var measured = Loudness(integratedLUFS: 0)
        for _ in 0..<rounds {
            let cpuBefore = Measure.processCPUSeconds()
            wall.append(try Measure.wallSeconds { measured = try Loudness.measure(samples: decoded.samples, format: decoded.format) })
            analysis.append(Measure.processCPUSeconds() - cpuBefore)
        }
        let name = "\(length) stereo 48 kHz, decoded: integrated loudness (libebur128), \(String(format: "%.2f", measured.integratedLUFS)) LUFS"
        var rows = [BenchRow(scenario: "21. Loudness", measure: "\(name), wall (the caller waits)",
                             unit: "s", engine: Measure.median(wall), goal: "<= 0.1 s",
                             isGoalMet: Measure.median(wall) <= 0.1, engineSamples: wall),
                    BenchRow(scenario: "21. Loudness", measure: "\(name), CPU (all threads)",
                             unit: "s CPU", engine: Measure.median(analysis), engineSamples: analysis)]
        for (name, path) in [("16-bit WAV", wav), ("Ogg Vorbis", ogg)] {
            var file: [Double] = []
            for _ in 0..<rounds {
                // A new engine each round: its cache would otherwise answer without measuring.
                let engine = try SceneRunner.offlineEngine()
                defer { engine.shutdown() }
                file.append(try Measure.cpuSeconds { _ = try engine.measureLoudness(ofTrackAt: path) })
            }
            rows.append(BenchRow(scenario: "21. Loudness", measure: "\(length) \(name) file: decoded and measured (measureLoudness(ofTrackAt:))",
                                 unit: "s CPU", engine: Measure.median(file), engineSamples: file))
        }
        return rows
    }
}
