/// What the session holds through an interruption and resumes after it: voices and streams
/// alike, so holding and resuming are written once.
protocol SessionHeld: AnyObject {
    /// Playing, paused, held by the session, or waiting to start when it is active.
    var state: PlayState { get set }
}

extension SessionHeld {
    /// An interruption begins: what plays is held. Returns true when it was playing.
    func holdForSession() -> Bool {
        guard state == .playing else { return false }
        state = .heldBySession
        return true
    }

    /// The session is active again: returns whether this plays now, under the policy's
    /// decision for what was held (`resumesHeld`). What waited to start always plays; what was
    /// held and does not resume is paused.
    func resumesAfterSession(resumesHeld: Bool) -> Bool {
        let resumes = state == .pendingStart || (state == .heldBySession && resumesHeld)
        if state == .heldBySession && !resumesHeld { state = .paused }
        return resumes
    }
}

extension Voice: SessionHeld {}
extension MusicStream: SessionHeld {}
