import Interlude

/// `loopStart` and `loopEnd` of a `music.play` or `music.crossfade` (scene format version 2):
/// seconds into the track. Either may be missing: the track's own loop tag, or its start or end,
/// stands in for it. The track's sample rate turns them into frames, so they are checked against
/// the track when the scene's sounds are opened (``SceneDirector``), not when it is parsed.
///
/// A plain value: any thread may use it.
public struct SceneLoopPoints: Sendable, Equatable {
    /// Where the loop starts, in seconds of the track.
    public var startSeconds: Double?
    /// Where it ends (exclusive), in seconds of the track.
    public var endSeconds: Double?

    /// Loop points; at least one should be given.
    public init(startSeconds: Double?, endSeconds: Double?) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
    }

    /// The loop in frames of a track of `frameCount` frames at `sampleRate`, whose own tags say
    /// `taggedRegion`: each point is `round(seconds x sampleRate)`. Throws `.badScene` with the
    /// problem (no file or event name) when the loop is empty or runs past the track.
    public func region(sampleRate: Int, frameCount: Int, taggedRegion: Range<Int>?) throws -> Range<Int> {
        let rate = Double(sampleRate)
        let startFrame = startSeconds.map { Int(($0 * rate).rounded()) } ?? taggedRegion?.lowerBound ?? 0
        let endFrame = endSeconds.map { Int(($0 * rate).rounded()) } ?? taggedRegion?.upperBound ?? frameCount
        let trackSeconds = Double(frameCount) / rate
        guard endFrame <= frameCount else {
            let end = endSeconds.map { "loopEnd \($0) s" } ?? "the tagged loop end"
            throw InterludeError(.badScene, "\(end) is past the end of the track (\(trackSeconds) s)")
        }
        guard startFrame < endFrame else {
            let start = startSeconds.map { "loopStart \($0) s" } ?? "the tagged loop start (\(Double(startFrame) / rate) s)"
            let end = endSeconds.map { "loopEnd \($0) s" } ?? "the loop end (\(Double(endFrame) / rate) s)"
            throw InterludeError(.badScene, "\(start) is not before \(end)")
        }
        return startFrame..<endFrame
    }
}
