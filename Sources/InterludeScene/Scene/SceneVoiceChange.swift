import Interlude

/// A scene's `set` event: change some of a playing voice's parameters. At least one of
/// `position`, `gain`, `pitch` is set; nil leaves that parameter as it is.
///
/// A plain value: any thread may use it.
public struct SceneVoiceChange: Sendable, Equatable {
    /// The voice, as named by the `id` of an earlier `play`.
    public var id: String
    /// New position in 3D.
    public var position: Vector3?
    /// New linear gain, >= 0.
    public var gain: Float?
    /// New pitch factor, > 0.
    public var pitch: Float?

    /// Creates a set event's payload.
    public init(id: String, position: Vector3? = nil, gain: Float? = nil, pitch: Float? = nil) {
        self.id = id
        self.position = position
        self.gain = gain
        self.pitch = pitch
    }
}
