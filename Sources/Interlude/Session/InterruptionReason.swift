/// Why an interruption began. Open-ended: a game may name its own reasons.
public struct InterruptionReason: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The name, as events, logs and scene files spell it.
    public let rawValue: String
    /// The value named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The value named `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// An incoming voice call, say from a launcher.
    public static let call = InterruptionReason("call")
    /// The game lost focus or was paused.
    public static let focusLost = InterruptionReason("focusLost")
    /// Job control: Ctrl-Z (SIGTSTP).
    public static let jobControl = InterruptionReason("jobControl")
    /// The output device or the audio server went away.
    public static let deviceLost = InterruptionReason("deviceLost")
    /// The machine is going to sleep (logind's PrepareForSleep).
    public static let systemSleep = InterruptionReason("systemSleep")
    /// The user switched to another login session (logind's session Active property is false).
    public static let sessionInactive = InterruptionReason("sessionInactive")
    /// Any other audio session taking over.
    public static let other = InterruptionReason("other")

    /// The name.
    public var description: String { rawValue }
}
