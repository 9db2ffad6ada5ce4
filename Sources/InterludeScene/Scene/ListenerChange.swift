import Interlude

/// Some of the listener's parameters, as a scene sets them (its top-level `listener` and its
/// `listener` events). At least one is set; nil leaves that parameter as it is.
///
/// A plain value: any thread may use it.
public struct ListenerChange: Sendable, Equatable {
    /// Where the listener is.
    public var position: Vector3?
    /// The direction it faces (OpenAL's "at" vector): never of zero length.
    public var forward: Vector3?
    /// Its up direction: never of zero length.
    public var up: Vector3?
    /// Master gain, >= 0.
    public var gain: Float?

    /// Creates a listener change.
    public init(position: Vector3? = nil, forward: Vector3? = nil, up: Vector3? = nil, gain: Float? = nil) {
        self.position = position
        self.forward = forward
        self.up = up
        self.gain = gain
    }
}
