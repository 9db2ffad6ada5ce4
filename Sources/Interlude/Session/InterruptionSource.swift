/// Who holds the session interrupted. Several sources may hold it at once (a call during a
/// game's own pause, say); the session is active again only when the last lets go, and each
/// source begins and ends its own hold. Open-ended: any non-empty name.
public struct InterruptionSource: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The name, as events, logs and scene files spell it.
    public let rawValue: String
    /// The value named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The value named `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The game's own calls: the default source of ``SoundEngine/beginInterruption(reason:source:)``.
    public static let game = InterruptionSource("game")
    /// Job control: Ctrl-Z, then `fg`.
    public static let jobControl = InterruptionSource("jobControl")
    /// logind's sleep signals: held from PrepareForSleep(true) to PrepareForSleep(false).
    public static let sleep = InterruptionSource("sleep")
    /// logind's login session: held while the session is not the active one (another user or
    /// VT has the seat).
    public static let sessionSwitch = InterruptionSource("sessionSwitch")
    /// A phone stream on the audio server (a stream whose media.role is in
    /// ``SoundEngine/Configuration/AudioServer/interruptingRoles``), or the server's own policy
    /// muting the engine's stream (module-role-cork): held while the call lasts, with reason
    /// ``InterruptionReason/call``.
    public static let phoneStream = InterruptionSource("phoneStream")
    /// The output device, lost until a rebuild: the hold only a new device releases.
    public static let device = InterruptionSource("device")

    /// The name.
    public var description: String { rawValue }
}
