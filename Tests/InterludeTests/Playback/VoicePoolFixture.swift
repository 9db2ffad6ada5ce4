import Foundation
@testable import Interlude

/// Offline engines and generated tones for the voice-pool, group and effect tests.
enum VoicePoolFixture {
    static let sampleRate = 48_000

    static func engine(budget: Int? = nil, hrtf: Bool = false) throws -> SoundEngine {
        var configuration = SoundEngine.Configuration(output: .offline(sampleRate: sampleRate, channelCount: 2))
        configuration.realVoiceBudget = budget
        configuration.hrtf = hrtf
        configuration.mediaRole = nil
        return try SoundEngine(configuration: configuration)
    }

    /// A mono sine of `frequencyHz` lasting `seconds`, amplitude 0.5.
    static func tone(_ engine: SoundEngine, frequencyHz: Double, seconds: Double = 1, amplitude: Float = 0.5) throws -> Sound {
        let frameCount = Int(seconds * Double(sampleRate))
        let samples = (0..<frameCount).map { amplitude * Float(sin(2 * Double.pi * frequencyHz * Double($0) / Double(sampleRate))) }
        return try engine.makeSound(name: "tone\(frequencyHz)", format: AudioFormat(sampleRate: sampleRate, channelCount: 1), samples: samples)
    }

    /// A mono linear sweep: f(t) = startHz + slopeHzPerSecond * t, amplitude 0.5.
    static func sweep(_ engine: SoundEngine, startHz: Double, slopeHzPerSecond: Double, seconds: Double) throws -> Sound {
        let frameCount = Int(seconds * Double(sampleRate))
        let samples = (0..<frameCount).map { frame -> Float in
            let t = Double(frame) / Double(sampleRate)
            return 0.5 * Float(sin(2 * Double.pi * (startHz * t + slopeHzPerSecond * t * t / 2)))
        }
        return try engine.makeSound(name: "sweep", format: AudioFormat(sampleRate: sampleRate, channelCount: 1), samples: samples)
    }

    /// RMS of one channel of interleaved stereo samples.
    static func rms(_ samples: [Float], channel: Int, frames: Range<Int>? = nil) -> Double {
        let range = frames ?? 0..<(samples.count / 2)
        guard !range.isEmpty else { return 0 }
        var sum = 0.0
        for frame in range { sum += Double(samples[2 * frame + channel]) * Double(samples[2 * frame + channel]) }
        return (sum / Double(range.count)).squareRoot()
    }

    /// Frequency of one channel from its rising zero crossings.
    static func frequency(_ samples: [Float], channel: Int, frames: Range<Int>) -> Double {
        var crossings: [Double] = []
        for frame in frames.dropFirst() {
            let previous = samples[2 * (frame - 1) + channel]
            let current = samples[2 * frame + channel]
            if previous < 0 && current >= 0 {
                crossings.append(Double(frame - 1) + Double(-previous / (current - previous)))
            }
        }
        guard crossings.count > 2 else { return 0 }
        return Double(crossings.count - 1) * Double(sampleRate) / (crossings.last! - crossings.first!)
    }

    static func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }
}
