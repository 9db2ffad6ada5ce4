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
    /// A beat of a track that raises beat events (``MusicTrack/raisesBeatEvents``) is about to
    /// be heard: `position` is its bar, beat and track frame. `mixFrame`: offline, the output
    /// frame it is mixed at, exactly; nil on a device, where it is raised by the update that
    /// finds the beat reached (within one update interval of it).
    case beat(MusicHandle, track: String, position: MusicPosition, mixFrame: Int?)
    /// A transition happened on its boundary: `from` (a track's name, or a plain track's path;
    /// nil when nothing played) gave way to `to`, which came in at `entryFrame` of its track.
    /// `lateFrames`: the frames of the old track heard past its boundary before the change, by
    /// the device's own mixing: 0 offline, where the change lands on the boundary's frame; on a
    /// device, the update that found the boundary reached came that much after it.
    /// `mixFrame` as for ``beat(_:track:position:mixFrame:)``.
    case transitioned(from: String?, to: MusicHandle, track: String, quantize: MusicQuantize, entry: MusicEntry,
                      entryFrame: Int, lateFrames: Int, mixFrame: Int?)
    /// A transition waiting for its boundary was replaced by another, or made moot by a
    /// transition to the track already playing: the one to `track` will not happen.
    case transitionReplaced(track: String)
    /// A transition named the track already playing: nothing changed.
    case transitionUnchanged(track: String)
    /// A transition or stinger asked for a beat, bar or end while the soundtrack had no beat
    /// grid (a plain file, or nothing playing): it happened at once.
    case quantizeUnavailable(MusicCueKind)
    /// A stinger started on its boundary: `sound` is the sound's name, `voice` its voice.
    case stingerPlayed(VoiceHandle, sound: String, mixFrame: Int?)
    /// A stinger waiting for its boundary was cancelled: its track stopped or was replaced first.
    case stingerCancelled(sound: String, mixFrame: Int?)
}

/// What waits for a boundary in music time.
public enum MusicCueKind: String, Sendable, Hashable {
    /// ``SoundEngine/transitionMusic(to:quantize:entry:fadeSeconds:channel:gain:)``.
    case transition
    /// ``SoundEngine/playStinger(_:quantize:gain:channel:)``.
    case stinger
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
        case .beat(_, let track, let position, _): "\(track): \(position)"
        case .transitioned(let from, _, let track, let quantize, let entry, let entryFrame, _, _):
            "transition from \(from ?? "nothing") to \(track) on the \(quantize.rawValue), entering at frame \(entryFrame) (\(entry.rawValue))"
        case .transitionReplaced(let track): "the waiting transition to \(track) was replaced"
        case .transitionUnchanged(let track): "transition to \(track), already playing: nothing changed"
        case .quantizeUnavailable(let kind): "\(kind.rawValue) with no beat grid to wait for: at once"
        case .stingerPlayed(let voice, let sound, _): "stinger \(sound) played as \(voice)"
        case .stingerCancelled(let sound, _): "stinger \(sound) cancelled: its track stopped first"
        }
    }
}
