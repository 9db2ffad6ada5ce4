/// What the sound-design layer tells the game (delivered as ``EngineEvent/design(_:)``): what
/// a cue play drew, plays that were dropped, snapshots started and stopped (or stops that
/// changed nothing), and cue bank files loaded again after they changed.
public enum DesignEvent: Sendable, Equatable {
    /// A cue play started `voice` (or deferred it to an interruption's end, for a looping cue):
    /// the variant at `variantIndex` of the cue's ``CueDefinition/variants``, with the drawn
    /// `gain` and `pitch` (before the play's own gain, loudness and curves).
    case cuePlayed(cue: CueID, voice: VoiceHandle, variantIndex: Int, gain: Float, pitch: Float)
    /// A cue play was dropped: the returned handle is stale.
    case cueDropped(cue: CueID, reason: CueDropReason)
    /// A snapshot started: its intensity moves to 1 over `fadeSeconds`.
    case snapshotStarted(MixSnapshotID, fadeSeconds: Double)
    /// A snapshot stopped: its intensity moves to 0 over `fadeSeconds`.
    case snapshotStopped(MixSnapshotID, fadeSeconds: Double)
    /// ``SoundEngine/blendOut(_:fadeSeconds:)`` of a snapshot already at intensity 0 (and not
    /// fading): it changed nothing.
    case snapshotStopIgnored(MixSnapshotID)
    /// A watched cue bank file changed and was loaded again: the next plays follow it.
    case bankReloaded(path: String)
    /// A watched cue bank file changed but could not be loaded: the previous bank stays whole,
    /// and `error` names the file and the cue, parameter, snapshot or sound at fault.
    case bankReloadFailed(path: String, error: InterludeError)
    /// A group's fade reached its end in this update: a gain fade
    /// (``SoundEngine/setGain(_:of:fadeSeconds:curve:)-(_,GroupID,_,_)``), a pause's fade to
    /// silence (the group is paused now) or a resume's fade in.
    case groupFadeFinished(GroupID)
}

/// Why a cue play was dropped.
public enum CueDropReason: String, Sendable, Equatable {
    /// Less than the cue's cooldown after its last play that was not dropped.
    case cooldown
    /// The cue already had ``CueDefinition/maxVoices`` voices and steals none
    /// (``CueSteal/none``).
    case maxVoices
}

extension DesignEvent: CustomStringConvertible {
    /// The event in words, for example "cue footstep played on voice 0.1 (variant 2, gain 0.8, pitch 1.05)".
    public var description: String {
        switch self {
        case .cuePlayed(let cue, let voice, let variantIndex, let gain, let pitch):
            "cue \(cue) played on \(voice) (variant \(variantIndex), gain \(gain), pitch \(pitch))"
        case .cueDropped(let cue, let reason): "cue \(cue) dropped (\(reason))"
        case .snapshotStarted(let snapshot, let fadeSeconds): "snapshot \(snapshot) started (fade \(fadeSeconds) s)"
        case .snapshotStopped(let snapshot, let fadeSeconds): "snapshot \(snapshot) stopped (fade \(fadeSeconds) s)"
        case .snapshotStopIgnored(let snapshot): "snapshot \(snapshot): stop ignored, it was already silent"
        case .bankReloaded(let path): "cue bank \(path) reloaded"
        case .bankReloadFailed(let path, let error): "cue bank \(path) not reloaded: \(error)"
        case .groupFadeFinished(let group): "group \(group): fade finished"
        }
    }
}
