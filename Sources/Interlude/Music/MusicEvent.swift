/// What happened to a streamed music track.
public enum MusicEvent: Sendable, Equatable {
    /// The soundtrack stopped for an interruption at this frame of its track.
    case suspended(positionInFrames: Int)
    /// The soundtrack resumed at this frame of its track.
    case resumed(positionInFrames: Int)
    /// The track's file is damaged at `startFrame` (an Ogg page lost, say): the decoder stepped
    /// over it and `skippedFrames` frames play as silence, so the track goes on and every later
    /// frame stays at its exact position. Logged as a warning too.
    case damageSkipped(path: String, startFrame: Int, skippedFrames: Int)
    /// The track ran dry at `positionInFrames`: its file's reads fell behind (a stalled disk, a
    /// slow network mount). It is silent, its position held, until
    /// ``recovered(path:positionInFrames:)``. Never raised offline, where a render waits for the
    /// decoding instead. Logged as a warning too.
    case underrun(path: String, positionInFrames: Int)
    /// A track that ran dry plays on from `positionInFrames`, the frame after the last one
    /// heard: no frame is skipped or played twice.
    case recovered(path: String, positionInFrames: Int)
    /// A track that does not loop played to its end, `positionInFrames` its frame count (or,
    /// ended early by damage it could not step over, the frame it stopped at): it no longer
    /// sounds, and its handle does nothing. Raised by the update that mixed its last frame.
    case ended(MusicHandle, positionInFrames: Int)
    /// A fade that leaves the track sounding reached its gain: a fade-in, a resume's, a
    /// `setGain` with `fadeSeconds`, or the incoming side of a crossfade (so this is the
    /// crossfade finishing). Raised by the update the fade ends in: the fade counts its time in
    /// update steps, so that is the update at or just after its duration. A fade to a pause or a stop
    /// raises nothing of its own: the track is then paused, or gone.
    case fadeFinished(MusicHandle)
}

extension MusicEvent: CustomStringConvertible {
    /// The event in words, for example "music 1 on music ended at frame 96000".
    public var description: String {
        switch self {
        case .suspended(let frame): "soundtrack suspended at frame \(frame)"
        case .resumed(let frame): "soundtrack resumed at frame \(frame)"
        case .damageSkipped(let path, let startFrame, let skippedFrames):
            "damage skipped in \(path): \(skippedFrames) frames from frame \(startFrame)"
        case .underrun(let path, let frame): "underrun in \(path) at frame \(frame)"
        case .recovered(let path, let frame): "recovered from the underrun in \(path) at frame \(frame)"
        case .ended(let music, let frame): "\(music) ended at frame \(frame)"
        case .fadeFinished(let music): "\(music): fade finished"
        }
    }
}
