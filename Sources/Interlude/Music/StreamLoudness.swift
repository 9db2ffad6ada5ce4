/// A streamed track's loudness target and the gain it measured to: the extra gain the track
/// plays with, on top of its own, its fade's and its group's.
struct StreamLoudness: Sendable, Equatable {
    /// The target in LUFS, as the game gave it (kept in a ``Snapshot``).
    var targetLUFS: Double
    /// `10^((target - measured) / 20)`, 1 for a silent track.
    var gain: Float
}
