import Interlude

/// One event of a scene's timeline: what happens, and when.
///
/// A plain value: any thread may use it.
public struct SceneEvent: Sendable, Equatable {
    /// The event's position in the file's `events` array, 0-based: how messages name it.
    public let index: Int
    /// When it happens, in seconds from the start: in 0...duration.
    public let atSeconds: Double
    /// The output frame at which it takes effect: `round(atSeconds x sampleRate)`.
    public let frame: Int
    /// What happens.
    public let action: SceneAction
}
