import Foundation
@testable import Interlude
@testable import InterludeScene

/// A private folder of generated tracks for the streaming tests, removed when released.
final class StreamFixtureFolder: ScratchFolder {
    init() throws {
        try super.init(prefix: "interlude-stream")
    }

    /// Writes interleaved 48 kHz `samples` as a WAV and returns its path.
    @discardableResult
    func writeWAV(_ name: String, _ samples: [Float], channelCount: Int = 2, sampleType: WAVSampleType = .float32) throws -> String {
        let path = path(name)
        try WAVFileWriter.write(samples: samples, format: AudioFormat(sampleRate: StreamTone.sampleRate, channelCount: channelCount),
                                sampleType: sampleType, to: path)
        return path
    }

    /// Encodes a WAV with /usr/bin/oggenc and returns the .ogg path.
    func encodeOgg(wavPath: String, name: String, quality: Int = 5) throws -> String {
        let output = path(name)
        try StreamProcess.run("/usr/bin/oggenc", ["-Q", "-q", "\(quality)", "-o", output, wavPath])
        return output
    }

    /// Decodes an .ogg with /usr/bin/oggdec to 16-bit PCM and returns its interleaved samples.
    func oggdecInt16(_ oggPath: String) throws -> [Int16] {
        let output = path(UUID().uuidString + ".wav")
        try StreamProcess.run("/usr/bin/oggdec", ["-Q", "-b", "16", "-o", output, oggPath])
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        // Find the "data" chunk of oggdec's plain 44-byte-header WAV.
        let bytes = [UInt8](data)
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if id == "data" {
                let body = Array(bytes[(offset + 8)..<min(bytes.count, offset + 8 + size)])
                return stride(from: 0, to: body.count - 1, by: 2).map { Int16(bitPattern: UInt16(body[$0]) | UInt16(body[$0 + 1]) << 8) }
            }
            offset += 8 + size + (size & 1)
        }
        throw InterludeError(.corruptData, "\(output): no data chunk")
    }
}

enum StreamProcess {
    static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw InterludeError(.writeFailed, "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }
}

/// Test signals at 48 kHz, interleaved stereo unless said otherwise.
enum StreamTone {
    static let sampleRate = 48_000

    /// A sine per channel: `frequencies[c]` Hz at `amplitude`, `frameCount` frames, starting at phase 0.
    static func sine(frequencies: [Double], amplitude: Float = 0.5, frameCount: Int, startFrame: Int = 0) -> [Float] {
        let channelCount = frequencies.count
        var samples = [Float](repeating: 0, count: frameCount * channelCount)
        for frame in 0..<frameCount {
            let time = Double(frame + startFrame) / Double(sampleRate)
            for channel in 0..<channelCount {
                samples[frame * channelCount + channel] = amplitude * Float(sin(2 * .pi * frequencies[channel] * time))
            }
        }
        return samples
    }

    /// A stereo sine, the same frequency on both channels (the right one at 0.8 of the left, to
    /// catch swapped or mixed channels).
    static func stereo(_ frequency: Double, amplitude: Float = 0.5, frameCount: Int) -> [Float] {
        var samples = sine(frequencies: [frequency, frequency], amplitude: amplitude, frameCount: frameCount)
        for frame in 0..<frameCount { samples[2 * frame + 1] *= 0.8 }
        return samples
    }
}

/// Measurements on interleaved samples.
enum StreamMeasure {
    /// RMS of one channel over frames `range`.
    static func rms(_ samples: [Float], channel: Int = 0, channelCount: Int = 2, frames range: Range<Int>) -> Float {
        Float(SignalMeasure.rms(samples, channel: channel, channelCount: channelCount, frames: range))
    }

    /// Frequency of one channel over `range`, from its rising zero crossings (interpolated).
    static func frequency(_ samples: [Float], channel: Int = 0, channelCount: Int = 2, frames range: Range<Int>) -> Double {
        SignalMeasure.zeroCrossingFrequency(samples, channel: channel, channelCount: channelCount,
                                            sampleRate: StreamTone.sampleRate, frames: range)
    }

    /// The amplitude of the `frequency` Hz tone in one channel over `range` (see
    /// ``SignalMeasure/toneAmplitude(_:channel:channelCount:sampleRate:frequency:frames:)``).
    static func tone(_ samples: [Float], _ frequency: Double, channel: Int = 0, channelCount: Int = 2, frames range: Range<Int>) -> Float {
        Float(SignalMeasure.toneAmplitude(samples, channel: channel, channelCount: channelCount, sampleRate: StreamTone.sampleRate,
                                          frequency: frequency, frames: range))
    }

    /// The largest absolute difference between consecutive frames of one channel.
    static func maximumStep(_ samples: [Float], channel: Int, channelCount: Int = 2, frames range: Range<Int>) -> Float {
        var largest: Float = 0
        for frame in (range.lowerBound + 1)..<range.upperBound {
            largest = max(largest, abs(samples[frame * channelCount + channel] - samples[(frame - 1) * channelCount + channel]))
        }
        return largest
    }

    /// The largest absolute sample difference between `rendered` frames starting at `renderedFrame` and
    /// `track` frames starting at `trackFrame`, over `frameCount` frames (interleaved, same channel count),
    /// each track frame first scaled by `gain` of its index in the range (1 throughout unless given:
    /// see ``OpenALStack/resumeGain(atFrame:)`` and ``OpenALStack/pauseGain(atFrame:)``).
    static func maximumDifference(_ rendered: [Float], from renderedFrame: Int, _ track: [Float], from trackFrame: Int,
                                  frameCount: Int, channelCount: Int = 2, gain: (Int) -> Float = { _ in 1 }) -> Float {
        var largest: Float = 0
        for frame in 0..<frameCount {
            let scale = gain(frame)
            for channel in 0..<channelCount {
                let index = frame * channelCount + channel
                largest = max(largest, abs(rendered[renderedFrame * channelCount + index] - scale * track[trackFrame * channelCount + index]))
            }
        }
        return largest
    }

    /// Whether the first ``OpenALStack/deClickFrames`` frames of `rendered` from `renderedFrame`
    /// are `track` from `trackFrame` (silence when nil) plus a fade-out never above
    /// ``OpenALStack/pauseGain(atFrame:)`` of full scale: what a voice stopped by a seek or a stop
    /// leaves from 1.20, its next frames, or once its buffers are gone its sample nearest zero,
    /// fading over 64 frames. On 1.19 there are no such frames.
    static func fadesOutOverTheRamp(_ rendered: [Float], from renderedFrame: Int, _ track: [Float]?, from trackFrame: Int,
                                    channelCount: Int = 2) -> Bool {
        (0..<OpenALStack.deClickFrames).allSatisfy { frame in
            (0..<channelCount).allSatisfy { channel in
                let expected = track.map { $0[(trackFrame + frame) * channelCount + channel] } ?? 0
                return abs(rendered[(renderedFrame + frame) * channelCount + channel] - expected) <= OpenALStack.pauseGain(atFrame: frame)
            }
        }
    }

    static func decibels(_ ratio: Float) -> Float { 20 * log10(ratio) }
}

extension SoundEngine {
    /// An offline 48 kHz stereo engine for the streaming tests.
    static func streamTestEngine(configure: (inout Configuration) -> Void = { _ in }) throws -> SoundEngine {
        var configuration = Configuration(output: .offline(sampleRate: StreamTone.sampleRate, channelCount: 2))
        configuration.mediaRole = nil
        configure(&configuration)
        return try SoundEngine(configuration: configuration)
    }
}
