/// What the sound-design layer tells the game (delivered as ``EngineEvent/design(_:)``): what
/// a cue play drew, plays that were dropped, and snapshot stops that changed nothing.
public enum DesignEvent: Sendable, Equatable {
    /// A cue play started `voice` (or deferred it to an interruption's end, for a looping cue):
    /// the variant at `variantIndex` of the cue's ``CueDefinition/variants``, with the drawn
    /// `gain` and `pitch` (before the play's own gain, loudness and curves).
    case cuePlayed(cue: CueID, voice: VoiceHandle, variantIndex: Int, gain: Float, pitch: Float)
    /// A cue play was dropped: the returned handle is stale.
    case cueDropped(cue: CueID, reason: CueDropReason)
    /// ``SoundEngine/stop(_:fadeSeconds:)-(MixSnapshotID,_)`` of a snapshot already at intensity 0 (and not
    /// fading): it changed nothing.
    case snapshotStopIgnored(MixSnapshotID)
}

/// Why a cue play was dropped.
public enum CueDropReason: String, Sendable, Equatable {
    /// Less than the cue's cooldown after its last play that was not dropped.
    case cooldown
    /// The cue already had ``CueDefinition/maxVoices`` voices and steals none
    /// (``CueSteal/none``).
    case maxVoices
}
