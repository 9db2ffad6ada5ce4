/// The boundaries of one playing track in its own frames: beats and bars from its tempo, and
/// its loop. Finds how far playback has to go to reach the next one, wrapping as the loop does.
struct MusicGrid {
    let tempo: MusicTempo?
    let sampleRate: Int
    let frameCount: Int
    let isLooping: Bool
    /// The region that repeats (the whole track when none is set).
    let loop: Range<Int>

    init(_ stream: MusicStream) {
        tempo = stream.tempo
        sampleRate = stream.format.sampleRate
        frameCount = stream.frameCount
        isLooping = stream.isLooping
        loop = stream.loopRegion ?? 0..<stream.frameCount
    }

    /// The frame playback stops or wraps at.
    private var endFrame: Int { isLooping ? loop.upperBound : frameCount }

    /// The next `quantize` boundary that playback reaches from `position`: at or after it, or
    /// after it with `excludingPosition`; the first at or after the loop's start when the loop
    /// wraps first. Returns the track frames until then and the boundary's frame. nil for any
    /// but "now" without a tempo (a plain track has no grid); a beat or bar with none ahead
    /// falls on the loop's or the track's end.
    func next(_ quantize: MusicQuantize, from position: Int, excludingPosition: Bool = false) -> (frames: Int, frame: Int)? {
        if quantize == .now { return (0, position) }
        guard let tempo else { return nil }
        switch quantize {
        case .now:
            return (0, position)
        case .end:
            return (max(0, endFrame - position), endFrame)
        case .beat, .bar:
            let step = quantize == .bar ? tempo.beatsPerBar : 1
            let start = excludingPosition ? position + 1 : position
            if start < endFrame, let frame = first(every: step, of: tempo, in: start..<endFrame) {
                return (frame - position, frame)
            }
            if isLooping, let frame = first(every: step, of: tempo, in: loop) {
                return (endFrame - position + frame - loop.lowerBound, frame)
            }
            return (max(0, endFrame - position), endFrame)
        }
    }

    /// The first frame in `range` of a beat whose number is a multiple of `step`.
    private func first(every step: Int, of tempo: MusicTempo, in range: Range<Int>) -> Int? {
        let seconds = Double(range.lowerBound) / Double(sampleRate) - tempo.firstBeatSeconds
        var beat = max(0, Int((seconds * tempo.bpm / 60).rounded(.down)) - 1)
        beat = (beat + step - 1) / step * step
        while tempo.frame(ofBeat: beat, sampleRate: sampleRate) < range.lowerBound { beat += step }
        let frame = tempo.frame(ofBeat: beat, sampleRate: sampleRate)
        return frame < range.upperBound ? frame : nil
    }

    /// The beats since the first at `frame`, within the bar (0 ..< beatsPerBar): whole beats,
    /// or, with `fractional`, the fraction too. 0 before the first beat and without a tempo.
    func beatInBar(atFrame frame: Int, fractional: Bool) -> Double {
        guard let tempo else { return 0 }
        let beats: Double
        if fractional {
            beats = max(0, (Double(frame) / Double(sampleRate) - tempo.firstBeatSeconds) * tempo.bpm / 60)
        } else {
            beats = Double(tempo.beat(atFrame: frame, sampleRate: sampleRate) ?? 0)
        }
        let bar = Double(tempo.beatsPerBar)
        return beats - (beats / bar).rounded(.down) * bar
    }
}
