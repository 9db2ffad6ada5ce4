import CEBUR128
import Foundation
import Testing
@testable import Interlude

/// A long sound is measured in 10 s segments on several threads. These check that the segments'
/// gating blocks are exactly one libebur128 state's: the figure matches a single state fed the
/// whole sound, on a signal whose level jumps every 1.7 s, so that a missing or doubled block at
/// a boundary would move it.
extension EngineSuites {
    @Suite struct LoudnessSegmentTests {
        static let rate = 48_000

        /// `seconds` of stereo tone whose level jumps between -50 and -4 dBFS every 1.7 s, with a
        /// full-scale click at 23.05 s for the true peak.
        static func signal(seconds: Double) -> [Float] {
            var generator = SeededRandom(seed: 31)
            let frameCount = Int(seconds * Double(rate))
            let stretch = Int(1.7 * Double(rate))
            var samples = [Float](repeating: 0, count: frameCount * 2)
            var amplitude: Float = 0
            for frame in 0..<frameCount {
                if frame % stretch == 0 { amplitude = Float(pow(10, (-50 + 46 * generator.unitInterval()) / 20)) }
                let time = Double(frame) / Double(rate)
                let value = amplitude * Float(sin(2 * .pi * 440 * time) * 0.7 + sin(2 * .pi * 2_900 * time) * 0.3)
                samples[frame * 2] = value
                samples[frame * 2 + 1] = value * 0.7
            }
            samples[Int(23.05 * Double(rate)) * 2] = 1
            return samples
        }

        /// What one libebur128 state measures over all of `samples`: integrated LUFS and true peak.
        static func singleState(_ samples: [Float]) -> (lufs: Double, peak: Double) {
            let mode = Int32(bitPattern: EBUR128_MODE_I.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue)
            guard let state = ebur128_init(2, UInt(rate), mode) else { return (.nan, .nan) }
            defer {
                var owned: UnsafeMutablePointer<ebur128_state>? = state
                ebur128_destroy(&owned)
            }
            samples.withUnsafeBufferPointer { _ = ebur128_add_frames_float(state, $0.baseAddress, samples.count / 2) }
            var lufs = 0.0
            _ = ebur128_loudness_global(state, &lufs)
            var peak = 0.0
            for channel in 0..<2 {
                var channelPeak = 0.0
                _ = ebur128_true_peak(state, UInt32(channel), &channelPeak)
                peak = max(peak, channelPeak)
            }
            return (lufs, 20 * log10(peak))
        }

        @Test("A long sound in segments measures as one libebur128 state, to 0.001 LU",
              arguments: [35.0, 40.0, 40.05])
        func segmentsMatchOneState(seconds: Double) throws {
            let samples = Self.signal(seconds: seconds)
            let reference = Self.singleState(samples)
            let format = AudioFormat(sampleRate: Self.rate, channelCount: 2)
            let whole = try Loudness.measure(samples: samples, format: format, truePeak: true)
            #expect(abs(whole.integratedLUFS - reference.lufs) < 0.001, "segments \(whole.integratedLUFS), one state \(reference.lufs)")
            #expect(abs((whole.truePeakDecibels ?? .nan) - reference.peak) < 0.001)
            // As a decoder hands it over: odd chunks that straddle the segments' boundaries.
            let folder = try StreamFixtureFolder()
            let path = try folder.writeWAV("long.wav", samples)
            let decoded = try Loudness.measure(path: path, truePeak: true)
            #expect(abs(decoded.integratedLUFS - reference.lufs) < 0.001, "decoded in chunks \(decoded.integratedLUFS), one state \(reference.lufs)")
        }
    }
}
