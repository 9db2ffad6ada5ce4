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

extension SessionEvent: CustomStringConvertible {
    /// The event in words, for example "interruption ended (phoneStream): resumed music and 2 voices".
    public var description: String {
        switch self {
        case .began(let reason, let source): "interruption began: \(reason) from \(source)"
        case .ended(let shouldResume, let resumed, let source):
            "interruption ended (\(source)): " + (shouldResume ? "resumed \(resumed)" : "not resumed")
        case .activated(let resumed): "session activated: resumed \(resumed)"
        case .reactivationFailed(let message): "reactivation failed: \(message)"
        case .holdAdded(let reason, let source): "hold added: \(reason) from \(source)"
        case .holdReleased(let source): "hold released: \(source)"
        case .holdKept(let source): "hold kept: \(source)"
        case .absorbed(let reason): "interruption absorbed: \(reason)"
        case .ignored: "interruption call ignored"
        case .commandDeferred(let command): "deferred: \(command)"
        case .commandDropped(let command): "dropped: \(command)"
        }
    }
}

extension ResumeSummary: CustomStringConvertible {
    /// What was resumed in words: "music and 2 voices", "1 voice", "nothing".
    public var description: String {
        let voices = voiceCount == 1 ? "1 voice" : "\(voiceCount) voices"
        switch (music, voiceCount) {
        case (true, 0): return "music"
        case (true, _): return "music and \(voices)"
        case (false, 0): return "nothing"
        case (false, _): return voices
        }
    }
}
