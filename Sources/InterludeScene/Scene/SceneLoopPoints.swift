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
    /// `taggedRegion`: each point is `round(seconds x sampleRate)`. The contract's bounds are
    /// checked in seconds, as the scene gives them (`loopStart < loopEnd <= the track's length`),
    /// and a loop they allow that rounds to no frame at all keeps one. Throws `.badScene` with the
    /// problem (no file or event name) when the loop is empty or runs past the track.
    public func region(sampleRate: Int, frameCount: Int, taggedRegion: Range<Int>?) throws -> Range<Int> {
        let rate = Double(sampleRate)
        var startFrame = startSeconds.map { Int(($0 * rate).rounded()) } ?? taggedRegion?.lowerBound ?? 0
        var endFrame = endSeconds.map { Int(($0 * rate).rounded()) } ?? taggedRegion?.upperBound ?? frameCount
        let trackSeconds = Double(frameCount) / rate
        let isPastTheEnd = endSeconds.map { $0 > trackSeconds } ?? (endFrame > frameCount)
        guard !isPastTheEnd else {
            let end = endSeconds.map { "loopEnd \($0) s" } ?? "the tagged loop end"
            throw InterludeError(.badScene, "\(end) is past the end of the track (\(trackSeconds) s)")
        }
        if let startSeconds, let endSeconds, startSeconds < endSeconds, startFrame >= endFrame {
            // Both in the track and in order, but closer than half a frame: one frame.
            if endFrame < frameCount { endFrame = startFrame + 1 } else { startFrame = endFrame - 1 }
        }
        guard startFrame < endFrame else {
            let start = startSeconds.map { "loopStart \($0) s" } ?? "the tagged loop start (\(Double(startFrame) / rate) s)"
            let end = endSeconds.map { "loopEnd \($0) s" } ?? "the loop end (\(Double(endFrame) / rate) s)"
            throw InterludeError(.badScene, "\(start) is not before \(end)")
        }
        return startFrame..<endFrame
    }
}
