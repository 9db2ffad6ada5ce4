/// A command given while the session was interrupted, as ``SessionEvent/commandDeferred(_:)``
/// and ``SessionEvent/commandDropped(_:)`` report it: which call, on which voice or channel.
public enum DeferredCommand: Sendable, Equatable {
    /// A voice started: a looping one plays when the session is active again, a one-shot is
    /// dropped.
    case play(VoiceHandle)
    /// A cue played: as ``play(_:)``, for the voice the cue started.
    case playCue(VoiceHandle)
    /// A system sound: always dropped.
    case playSystemSound
    /// A voice stopped: it stays stopped.
    case stop(VoiceHandle)
    /// A voice paused: it stays paused.
    case pause(VoiceHandle)
    /// A voice resumed: it plays when the session is active again.
    case resume(VoiceHandle)
    /// Some of a voice's properties changed (a setter or a fade): the change is heard when the
    /// session is active again. Reported once per voice and property for each interruption, so
    /// a game moving its emitters every frame while interrupted raises one event per voice,
    /// not one per call.
    case change(VoiceHandle, VoiceProperties)
    /// A track started on the channel: it plays when the session is active again.
    case playMusic(StreamChannel)
    /// The channel crossfaded to another track: the new one plays when the session is active.
    case crossfadeMusic(StreamChannel)
    /// The channel's track paused: it does not resume.
    case pauseMusic(StreamChannel)
    /// The channel's track resumed: it plays when the session is active again.
    case resumeMusic(StreamChannel)
    /// The channel's track stopped: it does not resume.
    case stopMusic(StreamChannel)
}

extension DeferredCommand: CustomStringConvertible {
    /// The command in words, for example "change position of voice 0.1" or "pause music".
    public var description: String {
        switch self {
        case .play(let voice): "play \(voice)"
        case .playCue(let voice): "play cue on \(voice)"
        case .playSystemSound: "play system sound"
        case .stop(let voice): "stop \(voice)"
        case .pause(let voice): "pause \(voice)"
        case .resume(let voice): "resume \(voice)"
        case .change(let voice, let properties): "change \(properties) of \(voice)"
        case .playMusic(let channel): "play \(channel)"
        case .crossfadeMusic(let channel): "crossfade \(channel)"
        case .pauseMusic(let channel): "pause \(channel)"
        case .resumeMusic(let channel): "resume \(channel)"
        case .stopMusic(let channel): "stop \(channel)"
        }
    }
}
