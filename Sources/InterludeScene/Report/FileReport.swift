@_spi(Tools) import Interlude

/// What `interlude info FILE` prints: the format a file is read as (by its content, not its
/// name), its sample rate, channels, exact length, the loop its tags declare, and its loudness
/// (integrated, EBU R128) and true peak.
public struct FileReport: Sendable {
    /// The report as text, one fact per line.
    public let text: String

    /// Opens `path` with the decoder its content calls for and reads its facts, then decodes it
    /// whole to measure its loudness and true peak (``Loudness``).
    ///
    /// Throws the decoder's ``InterludeError``: the message names the file and the problem.
    public static func make(path: String) throws -> FileReport {
        let decoder = try DecoderFactory.open(path: path)
        let format = decoder.format
        let rate = Double(format.sampleRate)
        func time(_ frames: Int) -> String { "\(frames) frames (\(seconds(Double(frames) / rate)) s)" }
        var lines = [
            "File: \(path)",
            "Format: \(formatName(of: decoder))",
            "Sample rate: \(format.sampleRate) Hz",
            "Channels: \(format.channelCount == 1 ? "1 (mono)" : "2 (stereo)")",
            "Length: \(time(decoder.frameCount))",
        ]
        if let loop = decoder.loopRegion {
            lines.append("Loop: \(time(loop.lowerBound)) to \(time(loop.upperBound)), end exclusive; "
                         + "the part before plays once, then the loop repeats")
        } else {
            lines.append("Loop: none declared (LOOPSTART with LOOPLENGTH or LOOPEND comments, or a WAV smpl loop)")
        }
        let loudness = try Loudness.measure(path: path, truePeak: true)
        lines.append("Loudness: " + (loudness.isSilent ? "silent (below \(decibels(Loudness.quietestLUFS)) LUFS)"
                                                       : "\(decibels(loudness.integratedLUFS)) LUFS integrated (EBU R128)"))
        lines.append("True peak: " + (loudness.truePeakDecibels.map { $0.isFinite ? "\(decibels($0)) dBTP" : "silent" } ?? "not measured"))
        return FileReport(text: lines.joined(separator: "\n"))
    }

    private static func formatName(of decoder: any AudioDecoder) -> String {
        switch decoder {
        case is WAVDecoder: "WAV (RIFF/WAVE)"
        case is VorbisDecoder: "Ogg Vorbis"
        case is OpusDecoder: "Ogg Opus (decoded at 48000 Hz)"
        case is FLACDecoder: "FLAC"
        case is MP3Decoder: "MP3 (MPEG audio, encoder delay and padding removed)"
        default: String(describing: type(of: decoder))
        }
    }

    /// Decibels with two decimals.
    private static func decibels(_ value: Double) -> String {
        let hundredths = Int((abs(value) * 100).rounded())
        let fraction = String(hundredths % 100)
        return "\(value < 0 && hundredths > 0 ? "-" : "")\(hundredths / 100).\(String(repeating: "0", count: 2 - fraction.count))\(fraction)"
    }

    /// Seconds with three decimals.
    private static func seconds(_ value: Double) -> String {
        let milliseconds = Int((value * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
