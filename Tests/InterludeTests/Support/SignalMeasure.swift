import Foundation

/// Measurements on interleaved float samples, for tests that assert on rendered audio.
enum SignalMeasure {
    /// One channel of interleaved samples, over `frames` (all frames when nil).
    static func channel(_ samples: [Float], _ channel: Int, channelCount: Int, frames: Range<Int>? = nil) -> [Float] {
        let frameCount = samples.count / channelCount
        let range = frames ?? 0..<frameCount
        return range.map { samples[$0 * channelCount + channel] }
    }

    /// Root mean square of one channel over `frames` (all frames when nil).
    static func rms(_ samples: [Float], channel: Int, channelCount: Int, frames: Range<Int>? = nil) -> Double {
        let values = Self.channel(samples, channel, channelCount: channelCount, frames: frames)
        guard !values.isEmpty else { return 0 }
        let sum = values.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(values.count)).squareRoot()
    }

    /// Root mean square over every channel together.
    static func totalRMS(_ samples: [Float], channelCount: Int, frames: Range<Int>? = nil) -> Double {
        let parts = (0..<channelCount).map { rms(samples, channel: $0, channelCount: channelCount, frames: frames) }
        return (parts.reduce(0) { $0 + $1 * $1 } / Double(channelCount)).squareRoot()
    }

    /// The frequency of a steady tone in one channel, from the interval between its first and
    /// last rising zero crossings (interpolated between samples).
    static func zeroCrossingFrequency(_ samples: [Float], channel: Int, channelCount: Int, sampleRate: Int,
                                      frames: Range<Int>? = nil) -> Double {
        let values = Self.channel(samples, channel, channelCount: channelCount, frames: frames)
        var crossings: [Double] = []
        for index in 1..<values.count where values[index - 1] < 0 && values[index] >= 0 {
            let a = Double(values[index - 1]), b = Double(values[index])
            crossings.append(Double(index - 1) + (-a) / (b - a))
        }
        guard crossings.count >= 2, let first = crossings.first, let last = crossings.last else { return 0 }
        return Double(crossings.count - 1) * Double(sampleRate) / (last - first)
    }

    /// The last frame in which the channel is not exactly zero, or nil when all of it is.
    static func lastNonZeroFrame(_ samples: [Float], channel: Int, channelCount: Int) -> Int? {
        let frameCount = samples.count / channelCount
        return (0..<frameCount).last { samples[$0 * channelCount + channel] != 0 }
    }

    /// The amplitude of the `frequency` Hz component of one channel over `frames`: one bin of a
    /// discrete Fourier transform, exact for a sine that makes a whole number of cycles in the
    /// window, and blind to other tones that do too.
    static func toneAmplitude(_ samples: [Float], channel: Int, channelCount: Int, sampleRate: Int, frequency: Double,
                              frames: Range<Int>) -> Double {
        var real = 0.0
        var imaginary = 0.0
        for frame in frames {
            let phase = 2 * Double.pi * frequency * Double(frame - frames.lowerBound) / Double(sampleRate)
            let value = Double(samples[frame * channelCount + channel])
            real += value * cos(phase)
            imaginary -= value * sin(phase)
        }
        return 2 * (real * real + imaginary * imaginary).squareRoot() / Double(max(1, frames.count))
    }

    /// Decibels of a gain ratio.
    static func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }
}
