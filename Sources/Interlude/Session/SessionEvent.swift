/// What the session tells the game, through ``SoundEngine/sessionEvents()`` and
/// ``SoundEngine/setSessionEventHandler(_:)``.
public enum SessionEvent: Sendable, Equatable {
    /// An interruption began: state saved, output stopped, context NULL.
    case began(reason: InterruptionReason)
    /// An interruption ended: context restored. `resumed` says what resumed.
    case ended(shouldResume: Bool, resumed: ResumeSummary)
    /// The game reactivated the session itself (``SoundEngine/activate()``).
    case activated(resumed: ResumeSummary)
    /// A begin arrived while already interrupted; it changed nothing.
    case absorbed(reason: InterruptionReason)
    /// An end arrived while active; it changed nothing.
    case ignored
    /// A command given while interrupted was recorded, to apply when the session is active again.
    case commandDeferred(command: String)
    /// A command given while interrupted was dropped (a one-shot, a system sound).
    case commandDropped(command: String)
    /// The soundtrack stopped for the interruption at this frame of its track.
    case musicSuspended(positionInFrames: Int)
    /// The soundtrack resumed at this frame of its track.
    case musicResumed(positionInFrames: Int)
    /// A voice resumed at this frame of its sound.
    case voiceResumed(handle: VoiceHandle, positionInFrames: Int)
    /// The output device or audio server is gone; the engine keeps trying to reopen it.
    case servicesLost
    /// A new device is open and every audio object was rebuilt.
    case servicesReset
}

/// What resumed when a session became active again.
public struct ResumeSummary: Sendable, Equatable {
    /// The soundtrack resumed (or started, when it was asked for during the interruption).
    public var music: Bool
    /// How many voices resumed or started.
    public var voiceCount: Int

    public init(music: Bool, voiceCount: Int) {
        self.music = music
        self.voiceCount = voiceCount
    }
}
