/// A loaded sound's peak level per millisecond: what level meters read
/// (``Sound/peakLevel(inFrames:)``), so that a sound whose samples live only in OpenAL's buffer
/// still has a meter. 1000 floats a second: under 1% of the PCM of a mono 16-bit sound at 48 kHz.
struct SoundLevels: Sendable {
    private let blockFrames: Int
    private var peaks: [Float] = []
    /// The block being filled: its peak and how many frames it holds so far.
    private var openPeak: Float = 0
    private var openFrames = 0

    /// An empty envelope for a sound at `sampleRate`.
    init(sampleRate: Int) {
        blockFrames = max(1, sampleRate / 1000)
    }

    /// Adds the next interleaved float `samples`, whole frames of `channelCount`.
    mutating func add(_ samples: UnsafeBufferPointer<Float>, channelCount: Int) {
        add(samples, channelCount: channelCount) { abs($0) }
    }

    /// Adds the next interleaved 16-bit `samples`, whole frames of `channelCount`, read as
    /// float (v / 32768).
    mutating func add(_ samples: UnsafeBufferPointer<Int16>, channelCount: Int) {
        add(samples, channelCount: channelCount) { abs(Float($0)) * (1 / 32768) }
    }

    /// A block's worth of samples at a time, in one plain loop: a sound's levels are made as
    /// it loads, so this runs over every sample loaded.
    @inline(__always)
    private mutating func add<Sample>(_ samples: UnsafeBufferPointer<Sample>, channelCount: Int, magnitude: (Sample) -> Float) {
        var index = 0
        while index < samples.count {
            let end = min(samples.count, index + (blockFrames - openFrames) * channelCount)
            var peak = openPeak
            for sample in index..<end { peak = max(peak, magnitude(samples[sample])) }
            openPeak = peak
            openFrames += (end - index) / channelCount
            index = end
            if openFrames == blockFrames {
                peaks.append(openPeak)
                openPeak = 0
                openFrames = 0
            }
        }
    }

    /// Closes the last, partly filled block.
    mutating func finish() {
        guard openFrames > 0 else { return }
        peaks.append(openPeak)
        openPeak = 0
        openFrames = 0
    }

    /// The loudest absolute sample in the blocks that `frames` touches (at most one block more
    /// on each side than `frames` itself), 0 outside the sound.
    func peak(inFrames frames: Range<Int>) -> Float {
        guard !frames.isEmpty, !peaks.isEmpty else { return 0 }
        let first = max(0, frames.lowerBound / blockFrames)
        let last = min(peaks.count - 1, (frames.upperBound - 1) / blockFrames)
        guard first <= last else { return 0 }
        return peaks[first...last].max() ?? 0
    }
}
