import Interlude

extension Sound {
    /// The loudest absolute sample within 10 ms after `frame` (to within a millisecond), for
    /// level meters. Any thread.
    public func peakLevel(aroundFrame frame: Int) -> Float {
        let windowFrames = max(1, format.sampleRate / 100)
        let start = max(0, min(frameCount, frame))
        return min(1, peakLevel(inFrames: start..<min(frameCount, start + windowFrames)))
    }
}
