/// Which properties of a voice a command changed: what ``DeferredCommand/change(_:_:)`` says is
/// waiting for the session.
public struct VoiceProperties: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt8
    /// The set with these bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The gain or a gain fade, or the group (whose gain scales the voice).
    public static let gain = VoiceProperties(rawValue: 1 << 0)
    /// The pitch or a pitch fade.
    public static let pitch = VoiceProperties(rawValue: 1 << 1)
    /// Whether the voice loops.
    public static let looping = VoiceProperties(rawValue: 1 << 2)
    /// The position, or whether it is relative to the listener.
    public static let position = VoiceProperties(rawValue: 1 << 3)
    /// The velocity.
    public static let velocity = VoiceProperties(rawValue: 1 << 4)
    /// The reference distance, the maximum distance or the rolloff factor.
    public static let distance = VoiceProperties(rawValue: 1 << 5)
    /// The reverb zone or the low-pass.
    public static let effects = VoiceProperties(rawValue: 1 << 6)
}

extension VoiceProperties: CustomStringConvertible {
    /// The properties by name, for example "gain, position"; "nothing" when empty.
    public var description: String {
        let names: [(VoiceProperties, String)] = [(.gain, "gain"), (.pitch, "pitch"), (.looping, "looping"), (.position, "position"),
                                                  (.velocity, "velocity"), (.distance, "distance"), (.effects, "effects")]
        let named = names.filter { contains($0.0) }.map(\.1)
        return named.isEmpty ? "nothing" : named.joined(separator: ", ")
    }
}
