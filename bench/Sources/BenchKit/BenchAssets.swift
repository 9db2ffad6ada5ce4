import Foundation
import Interlude
import InterludeScene

/// The bench's material: short mono sounds for emitters and a long stereo soundtrack, made
/// deterministically so the engine and the baseline get identical data.
public enum BenchAssets {
    public static let outputSampleRate = 48_000
    public static let soundSampleRate = 44_100
    public static let updateFrames = 480

    /// `count` mono sounds of `seconds` at 44.1 kHz: a few harmonics and a little noise each.
    public static func sounds(count: Int, seconds: Double = 1) -> [[Float]] {
        let frameCount = Int(Double(soundSampleRate) * seconds)
        return (0..<count).map { index in
            var noise = SeededNoise(seed: UInt64(index) &+ 7)
            let frequency = 110.0 * Double(index % 8 + 2)
            return (0..<frameCount).map { frame in
                let phase = 2 * Double.pi * frequency * Double(frame) / Double(soundSampleRate)
                return Float(0.25 * sin(phase) + 0.1 * sin(3 * phase)) + 0.05 * noise.next()
            }
        }
    }

    /// Folder for generated files that are expensive to make (the long track), kept across runs.
    static var cacheFolder: String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-bench").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A stereo 48 kHz Ogg Vorbis track of `seconds`: a melody of changing notes over noise, so
    /// no two stretches look alike (the interruption scenario matches positions by content).
    /// Encoded with oggenc once and cached.
    public static func track(seconds: Double) throws -> String {
        let frameCount = Int(seconds * Double(outputSampleRate))
        let path = cacheFolder + "/track-\(frameCount).ogg"
        if FileManager.default.fileExists(atPath: path) { return path }
        let wavPath = cacheFolder + "/track-\(frameCount)-\(getpid()).wav"
        defer { try? FileManager.default.removeItem(atPath: wavPath) }
        try writeTrack(frameCount: frameCount, sampleType: .float32, to: wavPath)
        let partialPath = path + ".part-\(getpid())"
        try runEncoder("/usr/bin/oggenc", ["-Q", "-q", "3", "--serial", "1", "-o", partialPath, wavPath], encoding: wavPath)
        try FileManager.default.moveItem(atPath: partialPath, toPath: path)
        return path
    }

    /// Runs an encoder (oggenc, flac, lame, opusenc) to its end; a failure throws `.writeFailed`
    /// naming the tool and the file it was encoding.
    static func runEncoder(_ executable: String, _ arguments: [String], encoding sourcePath: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw InterludeError(.writeFailed, "\(executable) failed (\(process.terminationStatus)) encoding \(sourcePath); `make deps` installs it")
        }
    }

    /// The same track as ``track(seconds:)``, as a 16-bit stereo WAV (the memory scenario's
    /// 16-bit source), written once and cached.
    public static func wavTrack(seconds: Double) throws -> String {
        let frameCount = Int(seconds * Double(outputSampleRate))
        let path = cacheFolder + "/track-\(frameCount)-int16.wav"
        if FileManager.default.fileExists(atPath: path) { return path }
        let partialPath = path + ".part-\(getpid())"
        try writeTrack(frameCount: frameCount, sampleType: .int16, to: partialPath)
        try FileManager.default.moveItem(atPath: partialPath, toPath: path)
        return path
    }

    /// Writes the track's `frameCount` frames, 48 kHz stereo, as a WAV of `sampleType`.
    private static func writeTrack(frameCount: Int, sampleType: WAVSampleType, to path: String) throws {
        let format = AudioFormat(sampleRate: outputSampleRate, channelCount: 2)
        let writer = try WAVFileWriter(path: path, format: format, sampleType: sampleType)
        var noise = SeededNoise(seed: 99)
        var chunk = [Float](repeating: 0, count: 2 * 4_800)
        var frequency = 220.0
        var phase = 0.0
        var written = 0
        let noteFrames = outputSampleRate / 5
        while written < frameCount {
            let count = min(4_800, frameCount - written)
            for index in 0..<count {
                let frame = written + index
                if frame % noteFrames == 0 { frequency = 150 + 600 * Double(abs(noise.next())) }
                phase += 2 * Double.pi * frequency / Double(outputSampleRate)
                let tone = Float(0.3 * sin(phase))
                chunk[2 * index] = tone + 0.05 * noise.next()
                chunk[2 * index + 1] = 0.7 * tone + 0.05 * noise.next()
            }
            try chunk.withUnsafeBufferPointer { try writer.append(UnsafeBufferPointer(rebasing: $0[0..<(2 * count)])) }
            written += count
        }
        try writer.finish()
    }

    /// Writes `sounds` as 16-bit mono WAV files (for the start-up scenario's loadSound) and
    /// returns their paths.
    public static func wavFiles(_ sounds: [[Float]]) throws -> [String] {
        try sounds.enumerated().map { index, samples in
            let path = cacheFolder + "/sound-\(index)-\(samples.count).wav"
            if !FileManager.default.fileExists(atPath: path) {
                try WAVFileWriter.write(samples: samples, format: AudioFormat(sampleRate: soundSampleRate, channelCount: 1),
                                        sampleType: .int16, to: path)
            }
            return path
        }
    }
}

/// A xorshift generator giving values in -1...1: the same numbers on every run.
struct SeededNoise {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    }

    mutating func next() -> Float {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Float(Double(state >> 11) / Double(1 << 53) * 2 - 1)
    }
}
