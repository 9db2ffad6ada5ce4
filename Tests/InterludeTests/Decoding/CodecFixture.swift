import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

/// The compressed formats the new decoders read, each with the real encoder that makes its test
/// files and the reference decoder whose output the tests compare against.
enum Codec: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case flac
    /// Constant bit rate, with LAME's "Info" header (encoder delay and padding).
    case mp3CBR
    /// Variable bit rate, with LAME's "Xing" header.
    case mp3VBR
    case opus

    var testDescription: String { rawValue }

    var fileExtension: String {
        switch self {
        case .flac: "flac"
        case .mp3CBR, .mp3VBR: "mp3"
        case .opus: "opus"
        }
    }

    /// Encodes `wav` into `output` with flac, lame or opusenc.
    func encode(_ wav: String, to output: String) throws {
        switch self {
        case .flac: try CodecFixture.run(["flac", "--silent", "--force", "-o", output, wav])
        case .mp3CBR: try CodecFixture.run(["lame", "--quiet", "-b", "192", wav, output])
        case .mp3VBR: try CodecFixture.run(["lame", "--quiet", "-V", "2", wav, output])
        case .opus: try CodecFixture.run(["opusenc", "--quiet", "--bitrate", "128", wav, output])
        }
    }

    /// Decodes `encoded` with the format's own command-line decoder into a WAV at `output`:
    /// `flac -d`, `mpg123 -w` (gapless, as libmpg123 decodes by default), `opusdec --rate 48000`
    /// (float output: opusdec dithers its 16-bit output, which would not match sample for sample).
    func decodeReference(_ encoded: String, to output: String) throws {
        switch self {
        case .flac: try CodecFixture.run(["flac", "--silent", "--force", "-d", "-o", output, encoded])
        case .mp3CBR, .mp3VBR: try CodecFixture.run(["mpg123", "-q", "-w", output, encoded])
        case .opus: try CodecFixture.run(["opusdec", "--quiet", "--rate", "48000", "--float", encoded, output])
        }
    }

    /// Opens `path` with this format's decoder directly, not through the factory.
    func open(_ path: String) throws -> any AudioDecoder {
        switch self {
        case .flac: try FLACDecoder(path: path)
        case .mp3CBR, .mp3VBR: try MP3Decoder(path: path)
        case .opus: try OpusDecoder(path: path)
        }
    }

    func isItsDecoder(_ decoder: any AudioDecoder) -> Bool {
        switch self {
        case .flac: decoder is FLACDecoder
        case .mp3CBR, .mp3VBR: decoder is MP3Decoder
        case .opus: decoder is OpusDecoder
        }
    }
}

/// A scratch folder of test signals, their encodings and reference decodes.
final class CodecFixture: ScratchFolder {
    static let sampleRate = 48_000

    init() throws {
        try super.init(prefix: "interlude-codecs")
    }

    /// Runs a command-line tool (looked up on PATH) through posix_spawn and waits for it.
    static func run(_ arguments: [String]) throws {
        let child = try ChildProcess(arguments, environment: ProcessInfo.processInfo.environment)
        guard child.waitForExit(timeoutSeconds: 60) else {
            child.stop(SIGKILL)
            throw TestFailure("\(arguments.joined(separator: " ")) did not finish in 60 s")
        }
        guard child.status == 0 else {
            throw TestFailure("\(arguments.joined(separator: " ")) failed (wait status \(child.status ?? -1))")
        }
    }

    /// Writes 16-bit `samples` as a WAV named `name` and returns its path.
    func writeWAV(_ name: String, _ samples: [Int16], channelCount: Int, sampleRate: Int = sampleRate) throws -> String {
        let path = path(name)
        try Data(WAVFixture.pcm16File(samples, channelCount: UInt16(channelCount), sampleRate: UInt32(sampleRate)))
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Encodes `samples` with `codec`; returns the encoded file's path.
    func encode(_ codec: Codec, _ samples: [Int16], channelCount: Int, sampleRate: Int = sampleRate, name: String) throws -> String {
        let wav = try writeWAV("\(name).wav", samples, channelCount: channelCount, sampleRate: sampleRate)
        let encoded = path("\(name).\(codec.fileExtension)")
        try codec.encode(wav, to: encoded)
        return encoded
    }

    /// The reference decoder's output for `encoded`, as 16-bit samples (through the same
    /// float-to-int16 conversion the decoders' output gets).
    func reference(_ codec: Codec, _ encoded: String) throws -> (format: AudioFormat, samples: [Int16]) {
        let wav = path(UUID().uuidString + ".wav")
        try codec.decodeReference(encoded, to: wav)
        let decoder = try WAVDecoder(path: wav)
        return (decoder.format, try readAll(decoder).map(PCMConversion.int16(fromFloat:)))
    }

    /// The 3-second stereo sweep of the Vorbis tests (left rises, right falls) at 48 kHz.
    static func stereoSweep() -> [Int16] { VorbisDecoderTests.sweep() }

    /// 1.5 s of a mono 440 Hz tone with a third harmonic at 44.1 kHz.
    static func monoTone() -> [Int16] {
        (0..<66_150).map { frame in
            let time = Double(frame) / 44_100
            return Int16(9000 * sin(2 * .pi * 440 * time) + 3000 * sin(2 * .pi * 1320 * time))
        }
    }

    /// One second of a stereo 375 Hz sine (128 frames a cycle, so the last frame joins the first).
    static func loopSine() -> [Int16] {
        (0..<sampleRate).flatMap { frame -> [Int16] in
            let value = 16_000 * sin(2 * .pi * Double(frame) / 128)
            return [Int16(value), Int16(0.8 * value)]
        }
    }
}

/// Every frame left in `decoder`, converted to 16-bit.
func readAllInt16(_ decoder: any AudioDecoder, framesPerRead: Int = 4096) throws -> [Int16] {
    try readAll(decoder, framesPerRead: framesPerRead).map(PCMConversion.int16(fromFloat:))
}

/// The largest difference between two equally long runs of 16-bit samples; Int.max if their lengths differ.
func largestDifference(_ left: some Collection<Int16>, _ right: some Collection<Int16>) -> Int {
    guard left.count == right.count else { return .max }
    return zip(left, right).map { abs(Int($0) - Int($1)) }.max() ?? 0
}
