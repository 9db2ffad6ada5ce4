/// What the audio session tells the game (inside ``EngineEvent/session(_:)``).
public enum SessionEvent: Sendable, Equatable {
    /// The session went from active to interrupted, held by `source`: state saved, output
    /// stopped, context NULL.
    case began(reason: InterruptionReason, source: InterruptionSource)
    /// The last hold, `source`'s, let go: context restored, the session active. `resumed` says
    /// what resumed.
    case ended(shouldResume: Bool, resumed: ResumeSummary, source: InterruptionSource)
    /// The game reactivated the session itself (``SoundEngine/activate()``).
    case activated(resumed: ResumeSummary)
    /// An end or activate could not make the context current again: the session stays
    /// interrupted and output stays stopped; a later end or activate tries again.
    case reactivationFailed(message: String)
    /// Another source began holding the session while it was already interrupted: nothing
    /// audible changes, and the session stays interrupted until this source lets go too.
    case holdAdded(reason: InterruptionReason, source: InterruptionSource)
    /// A source let go while others (or the lost device) still hold the session: nothing
    /// audible changes.
    case holdReleased(source: InterruptionSource)
    /// ``SoundEngine/activate()`` left `source`'s hold in place: that source still observes its
    /// condition (a phone stream still plays), and only its own end releases it.
    case holdKept(source: InterruptionSource)
    /// A begin from a source that already holds the session; it changed nothing.
    case absorbed(reason: InterruptionReason)
    /// An end from a source that holds nothing (or an activate while active); it changed nothing.
    case ignored
    /// A command given while interrupted was recorded, to apply when the session is active again.
    case commandDeferred(DeferredCommand)
    /// A command given while interrupted was dropped (a one-shot, a system sound).
    case commandDropped(DeferredCommand)
}

/// What resumed when a session became active again.
public struct ResumeSummary: Sendable, Equatable {
    /// The soundtrack resumed (or started, when it was asked for during the interruption).
    public internal(set) var music: Bool
    /// How many voices resumed or started.
    public internal(set) var voiceCount: Int

    init(music: Bool, voiceCount: Int) {
        self.music = music
        self.voiceCount = voiceCount
    }
}
