import Foundation
import Interlude

/// Scenario 21: the loudness of a track, as a loudness target measures it once before the track
/// starts (off the engine lock): libebur128's integrated loudness (BS.1770-4 / EBU R128, gated)
/// over the bench's stereo 48 kHz track, already decoded (the goal: <= 0.1 s for 3 minutes), and
/// the whole measurement of the file as `measureLoudness(ofTrackAt:)` does it, decoding
/// included, for the 16-bit WAV and the Ogg Vorbis track.
public enum LoudnessBench {
    /// The analysis row (with the goal) and one row per file, in CPU seconds (median of `rounds`).
    public static func rows(seconds: Double, rounds: Int) throws -> [BenchRow] {
        let wav = try BenchAssets.wavTrack(seconds: seconds)
        let ogg = try BenchAssets.track(seconds: seconds)
        let decoded = try DecoderFactory.decodeAll(path: wav)
        let minutes = seconds / 60
        let length = minutes == minutes.rounded() ? "\(Int(minutes)) min" : "\(Int(seconds)) s"
        var analysis: [Double] = []
        var measured = Loudness(integratedLUFS: 0)
        for _ in 0..<rounds {
            analysis.append(try Measure.cpuSeconds { measured = try Loudness.measure(samples: decoded.samples, format: decoded.format) })
        }
        var rows = [BenchRow(scenario: "21. Loudness", measure: "\(length) stereo 48 kHz, decoded: integrated loudness (libebur128), \(String(format: "%.2f", measured.integratedLUFS)) LUFS",
                             unit: "s CPU", engine: Measure.median(analysis), goal: "<= 0.1 s",
                             isGoalMet: Measure.median(analysis) <= 0.1, engineSamples: analysis)]
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
