import Foundation

/// Building blocks for synthesizing mono signals as `[Float]`; stereo is made by ``interleave(left:right:)``.
enum Signal {
    /// Frames in `durationSeconds`, rounded to the nearest frame.
    static func frameCount(durationSeconds: Double, sampleRate: Int) -> Int {
        Int((durationSeconds * Double(sampleRate)).rounded())
    }

    /// A sine that starts at phase 0. The phase is computed from the frame index as an exact
    /// fraction, so a whole number of cycles in the buffer loops without a seam.
    static func sine(frequencyHz: Int, frameCount: Int, amplitude: Float, sampleRate: Int) -> [Float] {
        (0..<frameCount).map { frame in
            let cycleFraction = Double((frame * frequencyHz) % sampleRate) / Double(sampleRate)
            return amplitude * Float(sin(2 * Double.pi * cycleFraction))
        }
    }

    /// Applies linear fades at the start and the end, so the sound starts and ends at silence.
    static func fade(_ samples: inout [Float], inSeconds: Double, outSeconds: Double, sampleRate: Int) {
        let fadeInFrameCount = min(frameCount(durationSeconds: inSeconds, sampleRate: sampleRate), samples.count)
        let fadeOutFrameCount = min(frameCount(durationSeconds: outSeconds, sampleRate: sampleRate), samples.count)
        for frame in 0..<fadeInFrameCount {
            samples[frame] *= Float(frame) / Float(fadeInFrameCount)
        }
        for frame in 0..<fadeOutFrameCount {
            samples[samples.count - 1 - frame] *= Float(frame) / Float(fadeOutFrameCount)
        }
    }

    /// Multiplies each sample by `envelope(seconds)`.
    static func shape(_ samples: inout [Float], sampleRate: Int, envelope: (Double) -> Double) {
        for frame in samples.indices {
            samples[frame] *= Float(envelope(Double(frame) / Double(sampleRate)))
        }
    }

    /// Scales `samples` so the loudest sample is `peak`.
    static func normalized(_ samples: [Float], peak: Float) -> [Float] {
        let loudest = samples.reduce(0) { max($0, abs($1)) }
        guard loudest > 0 else { return samples }
        return samples.map { $0 * peak / loudest }
    }

    /// A one-pole low-pass filter (6 dB per octave) with a fixed cutoff.
    static func lowpass(_ samples: [Float], cutoffHz: Double, sampleRate: Int) -> [Float] {
        lowpass(samples, sampleRate: sampleRate) { _ in cutoffHz }
    }

    /// A one-pole low-pass filter whose cutoff follows `cutoffHz(seconds)`.
    static func lowpass(_ samples: [Float], sampleRate: Int, cutoffHz: (Double) -> Double) -> [Float] {
        var state: Double = 0
        return samples.indices.map { frame in
            let coefficient = 1 - exp(-2 * Double.pi * cutoffHz(Double(frame) / Double(sampleRate)) / Double(sampleRate))
            state += coefficient * (Double(samples[frame]) - state)
            return Float(state)
        }
    }

    /// Makes the first `loopFrameCount` samples loop seamlessly: the frames after the loop
    /// (the tail) are crossfaded, equal-power, into the start. Playing the last loop frame
    /// then the first is the same step as the original signal's step across the loop end.
    static func seamlessLoop(_ samples: [Float], loopFrameCount: Int) -> [Float] {
        let crossfadeFrameCount = samples.count - loopFrameCount
        precondition(crossfadeFrameCount > 0 && crossfadeFrameCount <= loopFrameCount, "tail must fit in the loop")
        var loop = Array(samples[..<loopFrameCount])
        for frame in 0..<crossfadeFrameCount {
            let angle = Double.pi / 2 * Double(frame) / Double(crossfadeFrameCount)
            loop[frame] = loop[frame] * Float(sin(angle)) + samples[loopFrameCount + frame] * Float(cos(angle))
        }
        return loop
    }

    /// Interleaves two equal-length channels into stereo frames.
    static func interleave(left: [Float], right: [Float]) -> [Float] {
        precondition(left.count == right.count, "channels differ in length")
        var stereo = [Float](repeating: 0, count: left.count * 2)
        for frame in left.indices {
            stereo[2 * frame] = left[frame]
            stereo[2 * frame + 1] = right[frame]
        }
        return stereo
    }
}
