import Interlude

/// A scene's `cue` event (version 3): play a cue.
///
/// A plain value: any thread may use it.
public struct SceneCuePlay: Sendable, Equatable {
    /// A name in the scene's `cues`.
    public var cue: String
    /// The name later events use for the voice.
    public var id: String?
    /// Where it plays; nil: unpositioned.
    public var position: Vector3?
    /// Multiplies the drawn gain.
    public var gain: Float = 1
}
