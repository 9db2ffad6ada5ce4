/// What a voice does when its gain fade reaches its target.
enum FadeEnd: Equatable {
    /// Nothing: it plays on at the new gain.
    case none
    /// It stops (a stop with a fade-out).
    case stop
    /// It pauses, and its gain goes back to `restoredGain` (a pause with a fade-out), so a
    /// resume is heard at the gain it had.
    case pause(restoredGain: Float)
}
