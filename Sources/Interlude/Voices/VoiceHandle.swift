/// A playing instance of a sound, as the game holds it: opaque, compared and hashed, nothing
/// more.
///
/// Once the voice ends (a one-shot finishes, or it is stopped) its slot in the engine may be
/// reused, and every call with the old handle does nothing.
public struct VoiceHandle: Sendable, Hashable, CustomStringConvertible {
    /// The slot in the engine's voice table.
    let slot: Int
    /// The slot's generation when this voice started.
    let generation: UInt32
    /// The engine that made it.
    let engineID: Int

    /// "voice SLOT.GENERATION", for logs.
    public var description: String { "voice \(slot).\(generation)" }
}
