import BenchBaseline
import Foundation
import Interlude

/// Scenario 13: each compressed format's decoder against a plain C loop over the same library,
/// on the same track: FLAC (libFLAC), MP3 (libmpg123) and Ogg Opus (libopusfile). Both sides put
/// out interleaved 32-bit float; the goal is a throughput ratio of at least 0.95.
public enum CodecDecodeBench {
    /// The formats measured, and how each is made from a 16-bit WAV by its reference encoder.
    public enum Codec: String, CaseIterable, Sendable {
        case flac, mp3, opus

        var encoder: [String] {
            switch self {
            case .flac: ["/usr/bin/flac", "--silent", "--force", "-o"]
            case .mp3: ["/usr/bin/lame", "--quiet", "-b", "192"]
            case .opus: ["/usr/bin/opusenc", "--quiet", "--bitrate", "128"]
            }
        }

        var name: String {
            switch self {
            case .flac: "FLAC"
            case .mp3: "MP3"
            case .opus: "Ogg Opus"
            }
        }

        var library: String {
            switch self {
            case .flac: "libFLAC file decoder"
            case .mp3: "mpg123_read, float out"
            case .opus: "op_read_float"
            }
        }
    }

    /// The bench's melody track, `seconds` long (its 16-bit WAV), encoded to `codec` once and cached.
    public static func track(_ codec: Codec, seconds: Double) throws -> String {
        let wav = try BenchAssets.wavTrack(seconds: seconds)
        let path = wav.replacingOccurrences(of: "-int16.wav", with: ".\(codec.rawValue)")
        if FileManager.default.fileExists(atPath: path) { return path }
        let partial = path + ".part-\(getpid())"
        // flac takes "-o OUT IN"; lame and opusenc take "IN OUT".
        let arguments = codec == .flac ? Array(codec.encoder.dropFirst()) + [partial, wav]
                                       : Array(codec.encoder.dropFirst()) + [wav, partial]
        try BenchAssets.runEncoder(codec.encoder[0], arguments, encoding: wav)
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        return path
    }

    /// Frames the C loop over `codec`'s library gives for `path`.
    public static func baselineDecode(_ codec: Codec, path: String) throws -> Int {
        let frames = switch codec {
        case .flac: bb_decode_flac(path)
        case .mp3: bb_decode_mp3(path, 9_600)
        case .opus: bb_decode_opus(path, 9_600)
        }
        guard frames >= 0 else { throw InterludeError(.corruptData, "the C \(codec.name) loop failed on \(path) (\(frames))") }
        return Int(frames)
    }

    /// One row per codec: the engine's decoder (opened by content, read in 9,600-frame chunks)
    /// against the C loop, in seconds of audio per CPU second.
    public static func rows(seconds: Double, rounds: Int) throws -> [BenchRow] {
        try Codec.allCases.map { codec in
            let path = try track(codec, seconds: seconds)
            let (engine, baseline) = try Measure.alternate(
                rounds: rounds,
                engine: { try Measure.cpuSeconds { _ = try Bench.engineDecode(path: path) } },
                baseline: { try Measure.cpuSeconds { _ = try baselineDecode(codec, path: path) } })
            let engineThroughput = seconds / Measure.median(engine)
            let baselineThroughput = seconds / Measure.median(baseline)
            let ratio = engineThroughput / baselineThroughput
            return BenchRow(scenario: "13. Codec decode",
                            measure: "\(Int(seconds)) s stereo \(codec.name), float out (C: \(codec.library) loop): throughput",
                            unit: "x realtime", engine: engineThroughput, baseline: baselineThroughput, ratio: ratio,
                            minRatio: baseline.min()! / engine.min()!, ratioMeaning: "engine / C", goal: ">= 0.95", isGoalMet: ratio >= 0.95,
                            engineSamples: engine, baselineSamples: baseline)
        }
    }
}
