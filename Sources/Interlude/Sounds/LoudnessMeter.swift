import CEBUR128
import Foundation

/// One measurement of a sound's loudness with libebur128 (ITU-R BS.1770-4 / EBU R128): the
/// samples are added as they are decoded, a chunk at a time, so the whole PCM never has to be
/// held for it. Used by one thread; it owns its `ebur128_state` and frees it when it goes.
///
/// A sound shorter than one 400 ms gating block has no integrated loudness in BS.1770's sense
/// (libebur128 gives -inf): it is measured over its own length instead, as the K-weighted mean
/// power of the sound followed by silence up to 400 ms, less the share of that silence, which
/// is the mean power over the sound itself.
final class LoudnessMeter {
    private let state: UnsafeMutablePointer<ebur128_state>
    private let channelCount: Int
    private let sampleRate: Int
    private let measuresTruePeak: Bool
    private var frameCount = 0

    /// A meter for interleaved samples of `format`; `truePeak` also keeps each channel's true
    /// peak (4x oversampled), which costs several times the loudness alone.
    init(format: AudioFormat, truePeak: Bool) throws {
        let mode = Int32(bitPattern: EBUR128_MODE_I.rawValue | (truePeak ? EBUR128_MODE_TRUE_PEAK.rawValue : 0))
        guard format.channelCount > 0, format.sampleRate > 0,
              let state = ebur128_init(UInt32(format.channelCount), UInt(format.sampleRate), mode) else {
            throw InterludeError(.unsupportedFormat, "loudness: libebur128 cannot measure \(format.channelCount) channels at \(format.sampleRate) Hz")
        }
        self.state = state
        channelCount = format.channelCount
        sampleRate = format.sampleRate
        measuresTruePeak = truePeak
    }

    deinit {
        var state: UnsafeMutablePointer<ebur128_state>? = state
        ebur128_destroy(&state)
    }

    /// Adds interleaved float samples (whole frames).
    func add(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress else { return }
        let frames = samples.count / channelCount
        guard frames > 0 else { return }
        _ = ebur128_add_frames_float(state, base, frames)
        frameCount += frames
    }

    /// Adds interleaved 16-bit samples (whole frames), read as v / 32768.
    func add(_ samples: UnsafeBufferPointer<Int16>) {
        guard let base = samples.baseAddress else { return }
        let frames = samples.count / channelCount
        guard frames > 0 else { return }
        _ = ebur128_add_frames_short(state, base, frames)
        frameCount += frames
    }

    /// The loudness of everything added. Call once, at the end.
    func finish() -> Loudness {
        let blockFrames = (4 * sampleRate + 9) / 10
        var correctionDecibels = 0.0
        if frameCount > 0 && frameCount < blockFrames {
            let silence = [Float](repeating: 0, count: (blockFrames - frameCount) * channelCount)
            silence.withUnsafeBufferPointer { _ = ebur128_add_frames_float(state, $0.baseAddress, blockFrames - frameCount) }
            correctionDecibels = 10 * log10(Double(blockFrames) / Double(frameCount))
        }
        var integrated = -Double.infinity
        if frameCount > 0, ebur128_loudness_global(state, &integrated) != Int32(EBUR128_SUCCESS.rawValue) {
            integrated = -.infinity
        }
        if integrated.isFinite { integrated += correctionDecibels }
        var truePeakDecibels: Double?
        if measuresTruePeak {
            var peak = 0.0
            for channel in 0..<channelCount {
                var channelPeak = 0.0
                if ebur128_true_peak(state, UInt32(channel), &channelPeak) == Int32(EBUR128_SUCCESS.rawValue) {
                    peak = max(peak, channelPeak)
                }
            }
            truePeakDecibels = 20 * log10(peak)
        }
        return Loudness(integratedLUFS: integrated.isFinite ? integrated : -.infinity, truePeakDecibels: truePeakDecibels)
    }
}
