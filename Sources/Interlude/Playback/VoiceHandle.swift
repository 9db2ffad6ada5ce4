/// A playing instance of a sound: a slot index and a generation.
///
/// Once the voice ends (a one-shot finishes, or it is stopped) its slot may be reused with a new
/// generation, and every call with the old handle does nothing.
public struct VoiceHandle: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The slot in the engine's voice table.
    public let slot: Int
    /// The slot's generation when this voice started.
    public let generation: UInt32
    /// The engine that made it.
    let engineID: Int

    public var description: String { "voice \(slot).\(generation)" }
}
