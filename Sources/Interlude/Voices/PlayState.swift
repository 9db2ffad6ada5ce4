/// Where a voice or stream is in its life, as the engine (not OpenAL) sees it. The engine's
/// model is the truth; OpenAL is brought in line with it whenever the session is active.
enum PlayState: Equatable {
    /// Audible (or about to be, on the next mix).
    case playing
    /// Paused by the game; stays paused until resumed.
    case paused
    /// Was playing when an interruption began; resumes at its end as the policy says.
    case heldBySession
    /// Asked to play while interrupted; starts when the session is active again, whatever the policy.
    case pendingStart
}
