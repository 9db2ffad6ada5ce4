/// Which variant a cue play takes.
public enum CueOrder: String, Sendable, CaseIterable {
    /// Uniformly, independently of earlier plays.
    case random
    /// Uniformly among the variants other than the one the cue played last (with one
    /// variant, that one).
    case randomNoRepeat
    /// Each variant once in a random order, then again in a new order; a new round never
    /// starts with the variant just played.
    case shuffle
    /// In the listed order, wrapping around.
    case sequence
}

/// What a cue play does when the cue already has ``CueDefinition/maxVoices`` voices.
public enum CueSteal: String, Sendable, CaseIterable {
    /// Stops the cue's oldest voice and plays.
    case oldest
    /// Drops the play (``CueDropReason/maxVoices``).
    case none
}
