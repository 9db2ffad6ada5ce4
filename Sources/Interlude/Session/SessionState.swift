/// Whether the audio session is live.
public enum SessionState: Sendable, Equatable {
    /// The engine's context is current and output runs.
    case active
    /// Output is stopped and no context is current, for `reason`.
    case interrupted(reason: InterruptionReason)

    /// True when ``active``.
    public var isActive: Bool { self == .active }
}
