/// The listener: where the player's ears are. The engine keeps this copy and brings OpenAL's
/// listener in line with it, so it can be set up again on a new device.
public struct Listener: Sendable, Equatable, Codable {
    /// Where the listener is.
    public var position: Vector3 = .zero
    /// Where it faces (OpenAL's "at" vector).
    public var forward = Vector3(0, 0, -1)
    /// Which way is up.
    public var up = Vector3(0, 1, 0)
    /// Velocity for the doppler effect, in units per second.
    public var velocity: Vector3 = .zero
    /// Master linear gain at the listener.
    public var gain: Float = 1

    /// The default listener at the origin, facing -z.
    public init() {}

    /// Throws `.invalidArgument` naming `call` when a field is out of range.
    func validate(in call: String) throws {
        try Validate.vector(position, "position", in: call)
        try Validate.vector(forward, "forward", in: call)
        try Validate.vector(up, "up", in: call)
        try Validate.vector(velocity, "velocity", in: call)
        try Validate.gain(gain, in: call)
        guard forward.length > 0, up.length > 0 else {
            throw InterludeError(.invalidArgument, "\(call): forward and up must not be zero vectors")
        }
    }
}
