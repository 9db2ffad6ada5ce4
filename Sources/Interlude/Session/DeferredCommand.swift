/// A command given while the session was interrupted, as ``SessionEvent/commandDeferred(_:)``
/// and ``SessionEvent/commandDropped(_:)`` report it: which call, on which voice, channel,
/// group, parameter or snapshot. Changes (a setter that may be called every frame) are
/// reported once per target for each interruption; the other commands each time.
public enum DeferredCommand: Sendable, Hashable {
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
    /// The channel's track's own gain set: heard when the session is active again. Once per
    /// channel and interruption.
    case setMusicGain(StreamChannel)
    /// The listener, the distance model or the doppler settings changed: heard when the
    /// session is active again. Once per interruption.
    case changeListener
    /// A group's gain, mute or ducking changed: heard when the session is active again. Once
    /// per group and interruption.
    case changeGroup(GroupID)
    /// A group paused: its voices and tracks stay paused at the end.
    case pauseGroup(GroupID)
    /// A group resumed: its voices and tracks play when the session is active again.
    case resumeGroup(GroupID)
    /// A group stopped: its voices and tracks stay stopped.
    case stopGroup(GroupID)
    /// A game parameter set (globally): the curves follow it, heard when the session is
    /// active again. Once per parameter and interruption.
    case setParameter(String)
    /// A game parameter set for one cue voice alone. Once per parameter, voice and interruption.
    case setVoiceParameter(String, VoiceHandle)
    /// A mix snapshot blended in: its mix is heard when the session is active again.
    case blendIn(MixSnapshotID)
    /// A mix snapshot blended out.
    case blendOut(MixSnapshotID)

    /// Whether the command is a change reported once per target and interruption.
    var isCoalesced: Bool {
        switch self {
        case .change, .setMusicGain, .changeListener, .changeGroup, .setParameter, .setVoiceParameter: true
        default: false
        }
    }
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
        case .setMusicGain(let channel): "set \(channel) gain"
        case .changeListener: "change listener"
        case .changeGroup(let group): "change group \(group)"
        case .pauseGroup(let group): "pause group \(group)"
        case .resumeGroup(let group): "resume group \(group)"
        case .stopGroup(let group): "stop group \(group)"
        case .setParameter(let name): "set parameter \(name)"
        case .setVoiceParameter(let name, let voice): "set parameter \(name) of \(voice)"
        case .blendIn(let snapshot): "blend in snapshot \(snapshot)"
        case .blendOut(let snapshot): "blend out snapshot \(snapshot)"
        }
    }
}
