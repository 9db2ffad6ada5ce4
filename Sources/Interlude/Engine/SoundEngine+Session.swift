extension SoundEngine {
    /// Another audio session takes over: the engine records what is playing and where, stops
    /// output at once, sets the current context to NULL and raises ``SessionEvent/began(reason:)``.
    /// While interrupted no AL call is made; commands are tracked (see the README's rules).
    /// A begin while interrupted is absorbed. Any thread.
    public func beginInterruption(reason: InterruptionReason = .other) {
        withLiveCore { $0.beginInterruption(reason: reason) }
    }

    /// The other session lets go: the context is made current again, the device resumed, and
    /// what the resume policy and the tracked commands say plays again. An end while active is
    /// ignored. Any thread.
    public func endInterruption(shouldResume: Bool) {
        withLiveCore { $0.endInterruption(shouldResume: shouldResume, isActivation: false) }
    }

    /// The game reactivates the session itself (back in the foreground, a play button): ends an
    /// interruption whose end never came, as an end with shouldResume. It cannot end a device
    /// loss: only a rebuild does. Any thread.
    public func activate() {
        withLiveCore { $0.endInterruption(shouldResume: true, isActivation: true) }
    }

    /// Active, or interrupted and why. Any thread.
    public var sessionState: SessionState {
        core.withLock { $0.session.state }
    }

    /// A new stream of session events, from now until shutdown. Any thread.
    public func sessionEvents() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let id = eventSinksAdd(continuation)
        continuation.onTermination = { [weak self] _ in self?.eventSinksRemove(id) }
        return stream
    }

    /// Calls `handler` with every session event, on the thread whose call raised it, after the
    /// engine's lock is released (so the handler may call the engine). Replaces any earlier
    /// handler; nil removes it. Any thread.
    public func setSessionEventHandler(_ handler: (@Sendable (SessionEvent) -> Void)?) {
        eventSinksSetHandler(handler)
    }

    // MARK: Device loss

    /// Takes the output device away as if it were unplugged: positions are kept from the
    /// engine's own tracking, every AL object and the device are torn down, and the session is
    /// interrupted with reason deviceLost. Offline renders use it for `device.lost`; on a real
    /// device a loss is detected by the update. Any thread.
    public func disconnectDevice() {
        withLiveCore { $0.loseDevice(isReachable: true) }
    }

    /// Opens a new device now and rebuilds everything on it, as after a device loss. Throws
    /// `.deviceUnavailable` when no device opens yet (a real engine keeps retrying by itself).
    /// Any thread.
    public func reconnectDevice() throws {
        try withCore("reconnectDevice()") { try $0.rebuildDevice() }
    }

    /// Moves playback to another output with all state kept: voices, streams, positions,
    /// listener and groups. What played plays on, from where it was; what was paused stays
    /// paused. Real devices switch to real devices (`.systemDefault`, `.named(...)` from the
    /// list `interlude info` prints, `.null`) and offline engines to another offline format.
    /// ``configuration`` keeps the output the engine was made with; ``currentOutput`` says
    /// where it plays now, and a reopen after a device loss reopens that one.
    /// Throws `.invalidArgument` when mixing offline and real-time outputs, and
    /// `.deviceUnavailable` when the new device does not open: the engine stays on its old
    /// device with nothing lost. Any thread.
    public func switchDevice(to output: OutputDevice) throws {
        try withCore("switchDevice(to: \(output))") { try $0.switchDevice(to: output) }
    }

    /// The output the engine plays to now (see ``switchDevice(to:)``). Any thread.
    public var currentOutput: OutputDevice {
        core.withLock { $0.currentOutput }
    }

    // MARK: Snapshots

    /// The engine's state now, for saving. Any thread.
    public func snapshot() throws -> Snapshot {
        try withCore("snapshot()") { $0.makeSnapshot() }
    }
}
