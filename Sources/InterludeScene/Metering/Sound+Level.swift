import Interlude

extension Sound {
    /// The loudest absolute sample within 10 ms after `frame`, for level meters. Any thread.
    public func peakLevel(aroundFrame frame: Int) -> Float {
        let channelCount = format.channelCount
        let windowFrames = max(1, format.sampleRate / 100)
        let start = max(0, min(frameCount, frame)) * channelCount
        let end = min(frameCount * channelCount, start + windowFrames * channelCount)
        var peak: Float = 0
        for index in start..<end { peak = max(peak, abs(sampleValue(at: index))) }
        return min(1, peak)
    }
}
