/// How a voice plays: everything the engine needs to start it, and to start it again on a new
/// device after a device loss.
public struct VoiceParameters: Sendable, Equatable, Codable {
    /// Linear gain, 0 or more (1 is unchanged).
    public var gain: Float = 1
    /// Playback rate: 2 is an octave up. More than 0.
    public var pitch: Float = 1
    /// Loops until stopped.
    public var isLooping = false
    /// Where the voice is. nil plays it unpositioned, as it is (a stereo sound stays stereo);
    /// a position places it in 3D (a stereo sound is downmixed to mono for that).
    public var position: Vector3?
    /// Velocity for the doppler effect, in units per second.
    public var velocity: Vector3 = .zero
    /// The position is relative to the listener rather than the world.
    public var isRelativeToListener = false
    /// The distance at which the gain is 1.
    public var referenceDistance: Float = 1
    /// The distance past which the gain stops falling (clamped models).
    public var maxDistance: Float = .greatestFiniteMagnitude
    /// How fast the gain falls with distance.
    public var rolloffFactor: Float = 1
    /// The group whose gain scales this voice.
    public var group: GroupID = .sfx
    /// Higher is more important when voices compete for sources. At
    /// ``protectedPriority`` or more the voice is never made virtual (dialogue, say).
    public var priority: Int = 0

    /// The reverb zone (``SoundEngine/makeReverbZone(named:preset:)``) the voice sends to; nil
    /// uses its group's zone, if any.
    public var reverbZone: ReverbZoneID?
    /// Occlusion: the gain of high frequencies through a low-pass filter, 0...1 (1: no filter).
    public var lowPassGainHF: Float = 1

    /// The priority from which a voice is protected: it always holds a real source.
    public static let protectedPriority = 1_000

    /// Default parameters: gain 1, pitch 1, unpositioned, one-shot, in the "sfx" group.
    public init() {}

    /// Parameters for a voice at a position.
    public init(position: Vector3?, gain: Float = 1, pitch: Float = 1, isLooping: Bool = false, group: GroupID = .sfx, priority: Int = 0) {
        self.position = position
        self.gain = gain
        self.pitch = pitch
        self.isLooping = isLooping
        self.group = group
        self.priority = priority
    }

    /// Throws `.invalidArgument` naming `call` and the parameter when one is out of range.
    func validate(in call: String) throws {
        try Validate.gain(gain, in: call)
        try Validate.pitch(pitch, in: call)
        if let position { try Validate.vector(position, "position", in: call) }
        try Validate.vector(velocity, "velocity", in: call)
        try Validate.nonNegative(referenceDistance, "referenceDistance", in: call)
        try Validate.nonNegative(maxDistance, "maxDistance", in: call)
        try Validate.nonNegative(rolloffFactor, "rolloffFactor", in: call)
        guard lowPassGainHF.isFinite, (0...1).contains(lowPassGainHF) else {
            throw InterludeError(.invalidArgument, "\(call): lowPassGainHF must be 0...1, got \(lowPassGainHF)")
        }
    }
}
