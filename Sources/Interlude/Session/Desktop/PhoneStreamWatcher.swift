/// Decides, from the server's sink inputs, when phone streams hold the session: while at least
/// one stream of another program with an interrupting `media.role` plays (is not corked), or
/// while the server mutes the engine's own stream (module-role-cork). Overlapping streams make
/// one hold: it begins with the first and ends with the last.
struct PhoneStreamWatcher {
    /// What the engine must do.
    enum Change: Equatable {
        /// The first phone stream started: begin holding.
        case begin
        /// The last phone stream ended: end the hold, with shouldResume.
        case end
    }

    private let interruptingRoles: Set<String>
    private let followsServerMute: Bool
    /// The session is held for phone streams now.
    private var isHolding = false

    init(settings: SoundEngine.Configuration.AudioServer) {
        interruptingRoles = settings.interruptingRoles
        followsServerMute = settings.followsServerMute
    }

    /// Takes the server's current sink inputs; returns the change they call for, if any.
    mutating func update(_ sinkInputs: [UInt32: PulseSinkInput]) -> Change? {
        let calling = sinkInputs.values.contains { input in
            !input.isOwn && !input.isCorked && input.role.map(interruptingRoles.contains) == true
        }
        let mutedByServer = followsServerMute && sinkInputs.values.contains { $0.isOwn && $0.isMuted }
        let holds = calling || mutedByServer
        guard holds != isHolding else { return nil }
        isHolding = holds
        return holds ? .begin : .end
    }
}
