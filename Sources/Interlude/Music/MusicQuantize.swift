/// Where a music change waits for: a boundary in the playing track's own time.
public enum MusicQuantize: String, Sendable, Hashable, Codable, CaseIterable {
    /// At once.
    case now
    /// The next beat.
    case beat
    /// The start of the next bar.
    case bar
    /// The end of the loop region (or of the track, when it does not loop).
    case end
}

/// Where a track that a transition starts comes in.
public enum MusicEntry: String, Sendable, Hashable, Codable, CaseIterable {
    /// From its first frame.
    case start
    /// On the same beat of the bar as the track it replaces stood on at the boundary.
    case sync
}
