/// Who holds the session interrupted. Several sources may hold it at once (a call during a
/// game's own pause, say); the session is active again only when the last lets go, and each
/// source begins and ends its own hold. Open-ended: any non-empty name.
public struct InterruptionSource: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The game's own calls: the default source of ``SoundEngine/beginInterruption(reason:source:)``.
    public static let game = InterruptionSource("game")
    /// Job control: Ctrl-Z, then `fg`.
    public static let jobControl = InterruptionSource("jobControl")
    /// A phone stream on the audio server (a stream whose media.role is in
    /// ``SoundEngine/Configuration/AudioServer/interruptingRoles``), or the server's own policy
    /// muting the engine's stream (module-role-cork): held while the call lasts, with reason
    /// ``InterruptionReason/call``.
    public static let phoneStream = InterruptionSource("phoneStream")
    /// The output device, lost until a rebuild: the hold only a new device releases.
    public static let device = InterruptionSource("device")

    public var description: String { rawValue }
}
