import Interlude

/// A scene's `play` event: start a voice.
///
/// A plain value: any thread may use it.
public struct SceneVoicePlay: Sendable, Equatable {
    /// A name in the scene's `sounds`.
    public var sound: String
    /// The name later events use for this voice; none when nothing refers to it.
    public var id: String?
    /// Where it plays in 3D; nil plays the sound as is, unpositioned.
    public var position: Vector3?
    /// Linear gain, >= 0.
    public var gain: Float
    /// Pitch (and speed) factor, > 0.
    public var pitch: Float
    /// Whether it loops until stopped.
    public var loop: Bool
    /// The group whose gain it follows.
    public var group: String
    /// Higher wins when voices run short.
    public var priority: Int
    /// The reverb zone it sends to (an extension: `reverbZone`, a name in `reverbZones`).
    public var reverbZone: String?
    /// Occlusion: the high frequencies' gain through a low-pass, 0...1 (an extension: `lowPass`).
    public var lowPassGainHF: Float

    /// Creates a play event's payload; the defaults are the scene file's.
    public init(
        sound: String, id: String? = nil, position: Vector3? = nil, gain: Float = 1, pitch: Float = 1,
        loop: Bool = false, group: String = "sfx", priority: Int = 0, reverbZone: String? = nil, lowPassGainHF: Float = 1
    ) {
        self.sound = sound
        self.id = id
        self.position = position
        self.gain = gain
        self.pitch = pitch
        self.loop = loop
        self.group = group
        self.priority = priority
        self.reverbZone = reverbZone
        self.lowPassGainHF = lowPassGainHF
    }
}
