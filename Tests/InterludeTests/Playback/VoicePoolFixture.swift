import Foundation
@testable import Interlude

/// Engines and sounds for the voice-pool, group and effect tests, on top of ``TestEngine``.
enum VoicePoolFixture {
    static let sampleRate = TestEngine.sampleRate

    static func engine(budget: Int? = nil, hrtf: Bool = false) throws -> SoundEngine {
        try TestEngine.offline {
            $0.realVoiceBudget = budget
            $0.hrtf = hrtf
        }
    }

    /// A mono sine of `frequencyHz` lasting `seconds`, amplitude 0.5.
    static func tone(_ engine: SoundEngine, frequencyHz: Double, seconds: Double = 1, amplitude: Float = 0.5) throws -> Sound {
        try TestEngine.sine(engine, frequency: frequencyHz, frameCount: Int(seconds * Double(sampleRate)), amplitude: amplitude)
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
        SignalMeasure.rms(samples, channel: channel, channelCount: 2, frames: frames)
    }

    /// Frequency of one channel of interleaved stereo samples, from its rising zero crossings.
    static func frequency(_ samples: [Float], channel: Int, frames: Range<Int>) -> Double {
        SignalMeasure.zeroCrossingFrequency(samples, channel: channel, channelCount: 2, sampleRate: sampleRate, frames: frames)
    }

    static func decibels(_ ratio: Double) -> Double { SignalMeasure.decibels(ratio) }
}
