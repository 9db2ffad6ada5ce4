#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CEBUR128
import Dispatch

/// One measurement of a sound's loudness with libebur128 (ITU-R BS.1770-4 / EBU R128): the
/// samples are added as they are decoded, a chunk at a time, so the whole PCM never has to be
/// held for it. Used by one thread.
///
/// libebur128's filter runs at about 9 ns a sample on one core, 0.16 s for a 3-minute stereo
/// track, so a long sound is measured in segments of 10 s on libdispatch's workers while the
/// caller decodes on, each segment by a state of its own, and the segments' gating blocks are
/// then gated together (`ebur128_loudness_global_multiple`). A segment after the first starts
/// 300 ms early: its first block is then the one that straddles the boundary, so the blocks are
/// exactly a single state's, and only its filter's first milliseconds differ (under 0.001 LU,
/// `LoudnessSegmentTests`). A sound of one segment is measured on the caller, as one state would.
///
/// A sound shorter than one 400 ms gating block has no integrated loudness in BS.1770's sense
/// (libebur128 gives -inf): it is measured over its own length instead, as the K-weighted mean
/// power of the sound followed by silence up to 400 ms, less the share of that silence, which
/// is the mean power over the sound itself.
final class LoudnessMeter {
    /// The length of a segment, in 100 ms steps (libebur128's block step).
    private static let segmentSteps = 100
    /// What a segment after the first repeats of the one before it: three block steps.
    private static let overlapSteps = 3

    private let format: AudioFormat
    private let mode: Int32
    private let measuresTruePeak: Bool
    private let segmentFrames: Int
    private let overlapFrames: Int
    /// The current segment's samples, its overlap with the one before included.
    private var pending: [Float] = []
    private var frameCount = 0
    /// Set when libebur128 could not allocate a segment's state: the measure is then -inf.
    private var isOutOfMemory = false
    /// Every segment so far; those handed to a worker are done once `workers` is.
    private var segments: [LoudnessSegment] = []
    /// The workers' group and the slots that bound the segments in flight (and so the samples
    /// held) to a few. Made with the first hand-off: a sound of one segment, most of a game's
    /// effects, never pays libdispatch's first use.
    private var handOffs: (workers: DispatchGroup, slots: DispatchSemaphore)?
    /// One more segment than the processors online (sysconf, not ProcessInfo, which reads the
    /// cgroup's files and parses URLs on every engine's first load), and at least two.
    private static let segmentsInFlight = max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN)) + 1)

    /// A meter for interleaved samples of `format`; `truePeak` also keeps each channel's true
    /// peak (4x oversampled), which costs several times the loudness alone.
    init(format: AudioFormat, truePeak: Bool) throws {
        mode = Int32(bitPattern: EBUR128_MODE_I.rawValue | (truePeak ? EBUR128_MODE_TRUE_PEAK.rawValue : 0))
        guard format.channelCount > 0, format.sampleRate > 0,
              let probe = LoudnessSegment(format: format, mode: mode) else {
            throw InterludeError(.unsupportedFormat, "loudness: libebur128 cannot measure \(format.channelCount) channels at \(format.sampleRate) Hz")
        }
        self.format = format
        measuresTruePeak = truePeak
        let stepFrames = (format.sampleRate + 5) / 10
        segmentFrames = Self.segmentSteps * stepFrames
        overlapFrames = Self.overlapSteps * stepFrames
        segments = [probe]
    }

    /// Adds interleaved float samples (whole frames). The segments this call holds whole are
    /// measured where they lie, on the caller and libdispatch's workers at once, before it
    /// returns; a segment that spans calls (a decoder's chunks) is copied and handed to a worker
    /// once full.
    func add(_ samples: UnsafeBufferPointer<Float>) {
        let channelCount = format.channelCount
        var inPlace: [LoudnessJob] = []
        var rest = samples[...]
        while rest.count >= channelCount && !isOutOfMemory {
            let segment = segments[segments.count - 1]
            if segments.count == 1 {
                // The first segment is fed as it comes, so a short sound is never copied.
                let frames = min(segmentFrames - frameCount, rest.count / channelCount)
                let end = rest.startIndex + frames * channelCount
                inPlace.append(LoudnessJob(segment: segment, overlap: [], samples: UnsafeBufferPointer(rebasing: rest[rest.startIndex..<end])))
                let overlapFrom = max(frameCount, segmentFrames - overlapFrames)
                if overlapFrom < frameCount + frames {
                    pending.append(contentsOf: rest[(rest.startIndex + (overlapFrom - frameCount) * channelCount)..<end])
                }
                frameCount += frames
                rest = rest[end...]
                if frameCount == segmentFrames { startSegment() }
            } else if pending.count == overlapFrames * channelCount && rest.count >= segmentFrames * channelCount {
                let end = rest.startIndex + segmentFrames * channelCount
                inPlace.append(LoudnessJob(segment: segment, overlap: pending, samples: UnsafeBufferPointer(rebasing: rest[rest.startIndex..<end])))
                pending = Array(rest[(end - overlapFrames * channelCount)..<end])
                frameCount += segmentFrames
                rest = rest[end...]
                startSegment()
            } else {
                let frames = min(overlapFrames + segmentFrames - pending.count / channelCount, rest.count / channelCount)
                let end = rest.startIndex + frames * channelCount
                pending.append(contentsOf: rest[rest.startIndex..<end])
                frameCount += frames
                rest = rest[end...]
                if pending.count == (overlapFrames + segmentFrames) * channelCount { handOff() }
            }
        }
        if inPlace.count == 1 {
            inPlace[0].run(channelCount: channelCount)
        } else if !inPlace.isEmpty {
            let jobs = inPlace
            DispatchQueue.concurrentPerform(iterations: jobs.count) { jobs[$0].run(channelCount: channelCount) }
        }
    }

    /// Adds interleaved 16-bit samples (whole frames), read as v / 32768, exactly as
    /// libebur128's own 16-bit input reads them.
    func add(_ samples: UnsafeBufferPointer<Int16>) {
        let floats = samples.map { Float($0) * (1 / 32768) }
        floats.withUnsafeBufferPointer { add($0) }
    }

    /// The loudness of everything added. Call once, at the end.
    func finish() -> Loudness {
        let channelCount = format.channelCount
        let blockFrames = (4 * format.sampleRate + 9) / 10
        var correctionDecibels = 0.0
        if segments.count == 1 && frameCount > 0 && frameCount < blockFrames {
            let silence = [Float](repeating: 0, count: (blockFrames - frameCount) * channelCount)
            silence.withUnsafeBufferPointer { segments[0].add($0, channelCount: channelCount) }
            correctionDecibels = 10 * log10(Double(blockFrames) / Double(frameCount))
        } else if segments.count > 1 {
            if pending.count > overlapFrames * channelCount {
                pending.withUnsafeBufferPointer { segments[segments.count - 1].add($0, channelCount: channelCount) }
            } else {
                segments.removeLast()
            }
        }
        handOffs?.workers.wait()
        guard !isOutOfMemory else { return Loudness(integratedLUFS: -.infinity, truePeakDecibels: measuresTruePeak ? -.infinity : nil) }
        var integrated = -Double.infinity
        var states = segments.map { Optional($0.state) }
        if frameCount > 0, ebur128_loudness_global_multiple(&states, states.count, &integrated) != Int32(EBUR128_SUCCESS.rawValue) {
            integrated = -.infinity
        }
        if integrated.isFinite { integrated += correctionDecibels }
        let truePeakDecibels = measuresTruePeak ? 20 * log10(segments.map { $0.truePeak(channelCount: channelCount) }.max() ?? 0) : nil
        return Loudness(integratedLUFS: integrated.isFinite ? integrated : -.infinity, truePeakDecibels: truePeakDecibels)
    }

    /// Starts the next segment; `pending` already holds its overlap.
    private func startSegment() {
        guard let next = LoudnessSegment(format: format, mode: mode) else {
            isOutOfMemory = true
            return
        }
        segments.append(next)
    }

    /// Hands the full segment to a worker and starts the next with the overlap.
    private func handOff() {
        let channelCount = format.channelCount
        let samples = pending
        let segment = segments[segments.count - 1]
        let (workers, slots) = handOffs ?? (DispatchGroup(), DispatchSemaphore(value: Self.segmentsInFlight))
        handOffs = (workers, slots)
        slots.wait()
        DispatchQueue.global().async(group: workers) {
            samples.withUnsafeBufferPointer { segment.add($0, channelCount: channelCount) }
            slots.signal()
        }
        pending = Array(samples[(samples.count - overlapFrames * channelCount)...])
        startSegment()
    }
}

/// A segment to measure from samples the caller holds until `add` returns: its overlap (a
/// copy), then the samples where they lie.
private struct LoudnessJob: @unchecked Sendable {
    let segment: LoudnessSegment
    let overlap: [Float]
    let samples: UnsafeBufferPointer<Float>

    func run(channelCount: Int) {
        overlap.withUnsafeBufferPointer { segment.add($0, channelCount: channelCount) }
        segment.add(samples, channelCount: channelCount)
    }
}

/// One libebur128 state over one segment of a sound. It is made on the meter's thread, fed on
/// one worker, and read back on the meter's thread after the worker's group is waited for, so
/// no two threads touch it at once.
private final class LoudnessSegment: @unchecked Sendable {
    let state: UnsafeMutablePointer<ebur128_state>

    init?(format: AudioFormat, mode: Int32) {
        guard let state = ebur128_init(UInt32(format.channelCount), UInt(format.sampleRate), mode) else { return nil }
        self.state = state
    }

    deinit {
        var state: UnsafeMutablePointer<ebur128_state>? = state
        ebur128_destroy(&state)
    }

    func add(_ samples: UnsafeBufferPointer<Float>, channelCount: Int) {
        guard let base = samples.baseAddress, samples.count >= channelCount else { return }
        _ = ebur128_add_frames_float(state, base, samples.count / channelCount)
    }

    /// The highest true peak of its channels, linear.
    func truePeak(channelCount: Int) -> Double {
        var peak = 0.0
        for channel in 0..<channelCount {
            var channelPeak = 0.0
            if ebur128_true_peak(state, UInt32(channel), &channelPeak) == Int32(EBUR128_SUCCESS.rawValue) {
                peak = max(peak, channelPeak)
            }
        }
        return peak
    }
}
