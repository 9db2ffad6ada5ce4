extension SoundEngine {
    /// Another audio session takes over, held by `source` (the game's own calls by default).
    /// From active, the engine records what is playing and where, stops output at once, sets
    /// the current context to NULL and raises ``SessionEvent/began(reason:source:)``. While
    /// interrupted no AL call is made; commands are tracked (see <doc:Interruptions>).
    ///
    /// Several sources may hold the session at once: a begin from another source while
    /// interrupted adds a hold (``SessionEvent/holdAdded(reason:source:)``, nothing audible), and
    /// the session is active again only when the last lets go. A begin from a source that
    /// already holds is absorbed. Throws `.invalidArgument` for ``InterruptionReason/deviceLost``
    /// (the engine alone raises that, when the device goes away, and only a rebuild ends it) and
    /// for an empty source name, `.shutDown` after shutdown. Any thread.
    public func beginInterruption(reason: InterruptionReason = .other, source: InterruptionSource = .game) throws {
        guard reason != .deviceLost else {
            throw InterludeError(.invalidArgument, "beginInterruption(reason: deviceLost): device loss is the engine's own interruption; it begins when the device goes away")
        }
        guard !source.rawValue.isEmpty else {
            throw InterludeError(.invalidArgument, "beginInterruption(reason: \(reason), source: \"\"): a source needs a name")
        }
        try ensureAlive("beginInterruption")
        beginOwnInterruption(reason: reason, source: source)
    }

    /// An interruption the engine's own sources raise (job control, the audio server's phone
    /// streams). `outlivesActivation`: the source observes its condition, and ``activate()``
    /// keeps its hold.
    func beginOwnInterruption(reason: InterruptionReason, source: InterruptionSource, outlivesActivation: Bool) {
        withLiveCore { $0.session.begin(reason: reason, source: source, outlivesActivation: outlivesActivation) }
        // The snapshot is written off the lock; the begin returns once it is on disk (logind's
        // sleep lock is let go only then).
        waitForSnapshots()
    }

    /// After the machine wakes: a real device that went away meanwhile (ALC_CONNECTED is 0) is
    /// lost now, before the sleep hold lets go, so that its rebuild brings the sound back.
    func loseDeviceIfDisconnected() {
        withLiveCore { $0.router.loseDeviceIfDisconnected() }
    }

    /// `source` lets go (the game's own calls by default). When it is the last hold, the context
    /// is made current again, the device resumed, and what the resume policy and the tracked
    /// commands say plays again (``SessionEvent/ended(shouldResume:resumed:source:)``): under
    /// ``ResumePolicy/honorShouldResume`` this last end's `shouldResume` decides. While others
    /// still hold, only `source`'s hold goes (``SessionEvent/holdReleased(source:)``). An end
    /// from a source that holds nothing is ignored. Throws `.shutDown` after shutdown. Any thread.
    public func endInterruption(shouldResume: Bool, source: InterruptionSource = .game) throws {
        try withCore("endInterruption") { $0.session.end(shouldResume: shouldResume, source: source) }
    }

    /// An end from one of the engine's own sources (job control, logind, the audio server).
    func endOwnInterruption(source: InterruptionSource) {
        withLiveCore { $0.session.end(shouldResume: true, source: source) }
    }

    /// The game reactivates the session itself (back in the foreground, a play button): ends
    /// every hold given through ``beginInterruption(reason:source:)``, whose end may never come,
    /// as an end with shouldResume. It cannot end a device loss: only a rebuild does. Nor a
    /// system source's hold while that source still observes its condition (a phone stream
    /// still playing, our login session inactive): it stays, reported by
    /// ``SessionEvent/holdKept(source:)``. It does end the sleep hold (see
    /// ``Configuration/LogindSources``): a game running its code is awake, so a wake signal that
    /// never came cannot keep it silent. Throws `.shutDown` after shutdown. Any thread.
    public func activate() throws {
        try withCore("activate()") { $0.session.activate() }
    }

    /// Active, or interrupted and why. Any thread.
    public var sessionState: SessionState {
        readCore { $0.session.state }
    }

    /// The sources holding the session interrupted now, oldest first; empty while active. The
    /// lost device is ``InterruptionSource/device``. Any thread.
    public var interruptionHolders: [InterruptionSource] {
        readCore { $0.session.holders }
    }

    /// A new stream of the engine's events, from now until shutdown. Any thread.
    public func events() -> AsyncStream<EngineEvent> {
        let (stream, continuation) = AsyncStream<EngineEvent>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let id = addEventStream(continuation)
        continuation.onTermination = { [weak self] _ in self?.removeEventStream(id) }
        return stream
    }

    /// Calls `handler` with every engine event, on the thread whose call raised it, after the
    /// engine's lock is released (so the handler may call the engine);
    /// ``EngineEvent/savedStateWriteFailed(path:error:)`` comes on the engine's writer thread.
    /// Replaces any earlier handler; nil removes it. Any thread.
    public func setEventHandler(_ handler: (@Sendable (EngineEvent) -> Void)?) {
        replaceEventHandler(handler)
    }

    // MARK: Device loss

    /// Takes the output device away as if it were unplugged: positions are kept from the
    /// engine's own tracking, every AL object and the device are torn down, and the session is
    /// interrupted with reason deviceLost. Offline renders use it for `device.lost`; on a real
    /// device a loss is detected by the update. Any thread.
    @_spi(Tools) public func disconnectDevice() {
        withLiveCore { $0.router.loseDevice(isReachable: true) }
        waitForSnapshots()
    }

    /// Opens a new device now and rebuilds everything on it, as after a device loss, once its
    /// output runs: this call waits for that, up to
    /// ``Configuration/outputStartTimeoutSeconds``. Throws `.deviceUnavailable` when no device
    /// opens yet (a real engine keeps retrying by itself). Any thread.
    public func reconnectDevice() throws {
        // The device opens, gets its sounds (file sounds decoded again) and starts with the
        // engine lock released.
        try outputChanges.reconnect(timeoutSeconds: configuration.outputStartTimeoutSeconds)
    }

    /// Moves playback to another output with all state kept: voices, streams, positions,
    /// listener and groups. What played plays on, from where it was; what was paused stays
    /// paused. Real devices switch to real devices (`.systemDefault`, `.named(...)` from the
    /// list `interlude info` prints, `.null`) and offline engines to another offline format.
    /// ``configuration`` keeps the output the engine was made with; ``currentOutput`` says
    /// where it plays now, and a reopen after a device loss reopens that one.
    /// Throws `.invalidArgument` when mixing offline and real-time outputs, and
    /// `.deviceUnavailable` when the new device does not open: the engine stays on its old
    /// device with nothing lost. The new device's output is running when this returns (it
    /// waits up to ``Configuration/outputStartTimeoutSeconds``, without holding up other calls:
    /// the old device plays on meanwhile). Any thread.
    public func switchDevice(to output: OutputDevice) throws {
        // Opening the device, uploading the sounds and waiting for the new output to run hold
        // no engine lock: the engine plays on meanwhile.
        try outputChanges.switchDevice(to: output, timeoutSeconds: configuration.outputStartTimeoutSeconds)
    }

    /// The output the engine plays to now (see ``switchDevice(to:)``). Any thread.
    public var currentOutput: OutputDevice {
        readCore { $0.device.currentOutput }
    }

    // MARK: Saved state

    /// The engine's state now, for saving (``SavedState/write(to:)``). Any thread.
    public func savedState() throws -> SavedState {
        try withCore("savedState()") { $0.snapshots.makeSnapshot() }
    }
}
