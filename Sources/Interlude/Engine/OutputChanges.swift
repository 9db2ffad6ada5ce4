/// Every change of an engine's output that opens or moves a device: a reopen after a loss, a
/// reconnect, a switch, following a new default sink, and a restart of an output left behind
/// its server. Each opens (or moves) the device with the engine lock released, since that
/// waits for the audio server, and hands the result to the core's ``OutputRouter`` under the
/// lock. Every such open is counted (``OpensInFlight``) from its start until its device is the
/// core's or closed, so that ``closeAndWait(timeoutSeconds:)`` at shutdown returns only once
/// none is left open outside the core, and none opens later.
final class OutputChanges: Sendable {
    private let lock: EngineLock
    private let opensInFlight = OpensInFlight()

    init(lock: EngineLock) {
        self.lock = lock
    }

    /// Refuses every open from now on, and waits up to `timeoutSeconds` for those under way.
    func closeAndWait(timeoutSeconds: Double) {
        opensInFlight.closeAndWait(timeoutSeconds: timeoutSeconds)
    }

    // MARK: The changes

    /// Runs a reopen attempt after a device loss (opening the device, which on a stalled audio
    /// server blocks, and uploading every sound to it), then hands it to the router; a stale
    /// attempt (the engine shut down, switched or was reopened meanwhile) is closed.
    /// - Parameter waitSeconds: how long to wait, still off the lock, for the new device's
    ///   output to run before handing it over (0: not at all; the update installs it once it runs).
    func reopenAfterLoss(_ attempt: DevicePreparation, waitSeconds: Double = 0) {
        open(attempt, waitSeconds: waitSeconds) { $0.router.finishReopen(attempt, now: .now) }
    }

    /// Opens a new device now and rebuilds everything on it, as after a loss, once its output
    /// runs (waiting up to `timeoutSeconds`). Throws `.deviceUnavailable` when none opens.
    func reconnect(timeoutSeconds: Double) throws {
        var attempt: DevicePreparation?
        try lock.withCore("reconnectDevice()") { attempt = $0.router.prepareReconnect() }
        if let attempt {
            reopenAfterLoss(attempt, waitSeconds: timeoutSeconds)
            if let failure = attempt.failure { throw failure }
        }
        try lock.withCore("reconnectDevice()") { core in
            try core.router.rebuildDevice(waitSeconds: timeoutSeconds)
        }
    }

    /// Moves playback to `output` with all state kept, once its output runs (waiting up to
    /// `timeoutSeconds`, while the old device plays on). Throws what the router refuses,
    /// `.deviceUnavailable` when the device does not open (the engine stays where it was), and
    /// `.shutDown` when the engine shut down meanwhile.
    func switchDevice(to output: OutputDevice, timeoutSeconds: Double) throws {
        let call = "switchDevice(to: \(output))"
        let (prepared, current) = try lock.withCore(call) { core in
            let prepared = try core.router.prepareSwitch(to: output)
            return (prepared, core.device.currentOutput)
        }
        let isAlive = try open(prepared, waitSeconds: timeoutSeconds) { core in
            // A device that did not open is closed already: the engine stays where it is.
            if prepared.failure == nil { try core.router.switchDevice(to: output, opened: prepared) }
            return nil
        }
        if let failure = prepared.failure {
            throw OutputRouter.switchFailure(failure, to: output, from: current)
        }
        // Shut down before the switch: the new device is closed, and the call says why.
        if !isAlive { try lock.ensureAlive(call) }
    }

    /// The server's default sink moved from `old` to `new`, and `streamMoved` says whether the
    /// server moved our stream there: an engine on `.systemDefault` follows, with everything kept.
    /// Without the server's move, the device is reopened there in place where the library can
    /// (ALC_SOFT_reopen_device, 1.22 and later); elsewhere, or when that fails, a new device
    /// opens and gets its sounds.
    func followDefaultSink(from old: String, to new: String, streamMoved: Bool) {
        guard !streamMoved else {
            lock.withLiveCore { $0.router.defaultSinkMovedOurStream(from: old, to: new) }
            return
        }
        var reopen: OutputReopen?
        lock.withLiveCore { reopen = $0.router.reopenForDefaultSink() }
        if let reopen, self.reopen(reopen, handOver: { core, succeeded, seconds in
            core.router.defaultSinkReopened(reopen, succeeded: succeeded, seconds: seconds, from: old, to: new)
        }) {
            return
        }
        var preparation: DevicePreparation?
        lock.withLiveCore { preparation = $0.router.prepareToFollowDefaultSink() }
        guard let prepared = preparation else { return }
        open(prepared) { core in
            guard let error = prepared.failure else {
                return core.router.followDefaultSink(from: old, to: new, prepared: prepared)
            }
            core.router.defaultSinkNotFollowed(from: old, to: new, error: error)
            return nil
        }
    }

    /// Starts the output over, once the update found it left behind its server
    /// (``OutputRouter/restartOutputIfDue()``): in place, or, where that cannot be or failed, on
    /// a new device as a switch does.
    func restartOutput(_ restart: OutputRouter.OutputRestart) {
        var rebuild: DevicePreparation?
        switch restart {
        case .inPlace(let reopen):
            let restarted = self.reopen(reopen) { core, succeeded, seconds in
                core.router.outputRestarted(reopen, succeeded: succeeded, seconds: seconds)
            }
            guard !restarted else { return }
            lock.withLiveCore { rebuild = $0.router.prepareRestartRebuild() }
        case .rebuild(let prepared):
            rebuild = prepared
        }
        guard let rebuild else { return }
        open(rebuild) { core in core.router.finishRestart(rebuild) }
    }

    // MARK: Off the lock

    /// Runs `prepared` with the engine lock released (opens its device and uploads the sounds),
    /// waits, when it opened, up to `waitSeconds` for its output to run, and gives it to
    /// `handOver` on the core under the lock. `handOver` returns it when the core does not keep
    /// it (stale, or its device did not open), and when it throws it has kept or closed the
    /// device itself; after shutdown it does not run. A device the core did not keep is closed
    /// here, off the lock. Once shutdown has begun nothing opens: `prepared` fails with
    /// `.shutDown`. The events the hand-over raised are delivered last, when the open no longer
    /// counts: a handler may shut the engine down. Returns false when the engine had shut down
    /// before the hand-over.
    @discardableResult
    private func open<E: Error>(_ prepared: DevicePreparation, waitSeconds: Double = 0,
                                handOver: (EngineCore) throws(E) -> DevicePreparation?) throws(E) -> Bool {
        let isCounted = opensInFlight.begin()
        if !isCounted {
            prepared.cancel(InterludeError(.shutDown, "opening a device: the engine is shutting down"))
        } else if prepared.run(), waitSeconds > 0 {
            _ = prepared.opened?.wait(timeoutSeconds: waitSeconds)
        }
        let handedOver = Result { () throws(E) in try lock.callLiveCore(handOver) }
        if case .success(let outcome) = handedOver {
            let unused: DevicePreparation?
            if let (returned, _) = outcome {
                unused = returned
            } else {
                // The engine shut down first: its core took nothing.
                unused = prepared
            }
            unused?.discard()
        }
        if isCounted { opensInFlight.end() }
        guard let (_, raised) = try handedOver.get() else { return false }
        if let raised { lock.deliver(raised) }
        return true
    }

    /// Runs `reopen` (a device moved in place to another output) with the engine lock released,
    /// counted like ``open(_:waitSeconds:handOver:)``, then hands over under the lock whether it
    /// succeeded and how long it took. Returns what `handOver` returned; false when the engine
    /// shut down first.
    private func reopen(_ reopen: OutputReopen, handOver: (EngineCore, Bool, Double) -> Bool) -> Bool {
        guard opensInFlight.begin() else { return false }
        let started = BootInstant.now
        let succeeded = reopen.run()
        let seconds = BootInstant.now.seconds(since: started)
        let handedOver = lock.callLiveCore { handOver($0, succeeded, seconds) }
        opensInFlight.end()
        // Delivered once the reopen no longer counts: a handler may shut the engine down.
        guard let (kept, raised) = handedOver else { return false }
        if let raised { lock.deliver(raised) }
        return kept
    }
}
