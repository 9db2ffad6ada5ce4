import Logging

/// Where the engine's output goes and how it comes back: the loss of the device and its
/// rebuild, the reopen attempts (run off the engine lock by the caller), a switch to another
/// output, and following the audio server's default sink. It changes the device through
/// ``DeviceHost``, has ``HeldPlayback`` record, hold, move and resume what plays, and
/// ``SessionSnapshots`` write the snapshot a loss calls for, as an interruption does.
final class OutputRouter {
    private let configuration: SoundEngine.Configuration
    private let logger: Logger
    private let session: AudioSession
    private let host: DeviceHost
    private let events: EventQueue
    private let playback: HeldPlayback
    private let snapshots: SessionSnapshots
    /// The named device left for the system default after it disappeared
    /// (``NamedDeviceLoss/followSystemDefault``), until the rebuild on the default reports it.
    @exclusivity(unchecked) private var leftNamedDevice: String?

    init(configuration: SoundEngine.Configuration, logger: Logger, session: AudioSession, host: DeviceHost,
         events: EventQueue, playback: HeldPlayback, snapshots: SessionSnapshots) {
        self.configuration = configuration
        self.logger = logger
        self.session = session
        self.host = host
        self.events = events
        self.playback = playback
        self.snapshots = snapshots
    }

    /// The device is gone (or, offline, is being taken away): keep the positions the engine
    /// tracked, tear down every AL object, and interrupt with reason deviceLost.
    /// - Parameter isReachable: the device still answers (an offline teardown), so the exact
    ///   positions can be read from it first.
    func loseDevice(isReachable: Bool) {
        guard host.isOpen else { return }
        let wasActive = session.isActive
        var held: [MusicEvent] = []
        if wasActive && isReachable { playback.recordPositions() }
        if wasActive { held = playback.hold() }
        _ = session.markDeviceLost()
        forgetDevice(isReachable: isReachable)
        followDefaultIfNamedDeviceWent()
        announceDeviceLoss(wasActive: wasActive, held: held)
        snapshots.saveIfConfigured()
    }

    /// Tells the game the device is lost (the session began, or one more hold was added, then
    /// where the soundtrack was held), and schedules the first reopen attempt. The session is
    /// already marked lost.
    private func announceDeviceLoss(wasActive: Bool, held: [MusicEvent]) {
        events.emit(wasActive ? SessionEvent.began(reason: .deviceLost, source: .device) : .holdAdded(reason: .deviceLost, source: .device))
        for event in held { events.emit(event) }
        events.emit(DeviceEvent.lost)
        host.scheduleReopen(now: .now)
    }

    /// A named device went: under ``NamedDeviceLoss/followSystemDefault`` the reopen tries open
    /// the system default from now on; under ``NamedDeviceLoss/waitForIt`` they keep to it.
    private func followDefaultIfNamedDeviceWent() {
        guard case .named(let name) = host.currentOutput, configuration.whenNamedDeviceDisappears == .followSystemDefault else { return }
        logger.info("the named device \(name) is gone: the engine follows the system default")
        host.setOutput(.systemDefault)
        leftNamedDevice = name
    }

    /// A real device that reports ALC_CONNECTED = 0 is lost now (the update checks that only
    /// while the session is active; after a wake the sleep source asks before it lets go).
    func loseDeviceIfDisconnected() {
        guard host.isOpen, !host.isLoopback, !host.isConnected else { return }
        loseDevice(isReachable: false)
    }

    /// The one teardown, for shutdown, loss and switch: every room forgets its AL names (the
    /// model keeps the positions), and the device is closed.
    func forgetDevice(isReachable: Bool) {
        playback.forgetDevice()
        host.closeDevice(isReachable: isReachable)
    }

    /// Opens a new device and, once its output runs, rebuilds every audio object from the model,
    /// then resumes as after an interruption end with shouldResume. `waitSeconds` bounds how
    /// long this call waits for the output to run (0: not at all; a later call finishes the
    /// rebuild). While other sources still hold the session, the new device waits, silent, with
    /// the context NULL, for the last of them to let go. Throws when no device can be opened yet.
    func rebuildDevice(waitSeconds: Double) throws {
        guard !host.isOpen, session.isDeviceLost else { return }
        let isInstalled: Bool
        do {
            isInstalled = try host.reopenWhenRunning(waitSeconds: waitSeconds)
        } catch {
            // Buffers adopted for a device that would not install went with it.
            if !host.isOpen { playback.forgetSounds() }
            throw error
        }
        guard isInstalled else { return }
        logger.log(level: host.currentOutput.isOffline ? .debug : .info, "output device reopened")
        emitOutputStarted()
        if let left = leftNamedDevice {
            leftNamedDevice = nil
            events.emit(DeviceEvent.routeChanged(from: left, to: host.deviceName ?? "the system default"))
        }
        guard session.endDeviceLoss() else {
            host.deactivate()
            events.emit(DeviceEvent.rebuilt)
            events.emit(.holdReleased(source: .device))
            return
        }
        let summary = playback.resume(resumesHeld: true)
        events.emit(DeviceEvent.rebuilt)
        events.emit(.ended(shouldResume: true, resumed: summary, source: .device))
    }

    /// The first third of a switch, under the lock: checks `output` and returns what opens it
    /// and uploads every sound to it, which the caller runs without the engine lock
    /// (``DevicePreparation/run()``), waits for its output to run, then calls
    /// ``switchDevice(to:opened:)``.
    func prepareSwitch(to output: OutputDevice) throws -> DevicePreparation {
        let current = host.currentOutput
        guard output.isOffline == current.isOffline else {
            throw InterludeError(.invalidArgument, "switchDevice(to: \(output)): cannot switch between offline and real-time output (the engine is on \(current))")
        }
        return DevicePreparation(output: output, opener: host.deviceOpener, uploads: playback.soundUploads,
                                 epoch: host.currentReopenEpoch)
    }

    /// The error a switch to `output` throws when its device did not open: the engine stays
    /// on `current`.
    static func switchFailure(_ error: any Error, to output: OutputDevice, from current: OutputDevice) -> InterludeError {
        let call = "switchDevice(to: \(output))"
        guard let error = error as? InterludeError else {
            return InterludeError(.deviceUnavailable, "\(call): \(error); still on \(current)")
        }
        // The engine began shutting down before the new device could open.
        if error.code == .shutDown { return InterludeError(.shutDown, "\(call): \(error.message)") }
        let code: InterludeError.Code = error.code == .invalidArgument ? .invalidArgument : .deviceUnavailable
        return InterludeError(code, "\(call): \(error.message); still on \(current)")
    }

    /// Moves playback to `output`, opened by ``prepareSwitch(to:)``, with every voice, stream,
    /// position and setting kept: records the positions, tears the old device down, installs
    /// the new one, rebuilds and resumes what played (what was paused stays paused). The new
    /// device is opened first, so a failing open leaves the engine on its old device. During a
    /// device loss the new device becomes the one starting after the loss (installed once its
    /// output runs), and retries open `output`; during an interruption the new device waits,
    /// silent, for the end. The sounds uploaded off the lock are kept; those loaded meanwhile
    /// are uploaded here.
    func switchDevice(to output: OutputDevice, opened prepared: DevicePreparation) throws {
        let call = "switchDevice(to: \(output))"
        guard let newDevice = prepared.opened else { return }
        guard host.isOpen else {
            // Lost: the new device, with its sounds, becomes the one starting after the loss;
            // the update installs it once its output runs.
            playback.forgetSounds()
            host.setOutput(output)
            guard host.adoptReopened(newDevice, epoch: host.currentReopenEpoch) else {
                DeviceHost.discard(newDevice)
                return
            }
            leftNamedDevice = nil
            playback.adoptSounds(of: prepared)
            installReopenedIfRunning(now: .now)
            return
        }
        let wasActive = session.isActive
        if wasActive {
            playback.recordPositions()
            for event in playback.hold() { events.emit(event) }
        }
        // Sounds loaded since the new device was prepared live only in the old one's buffers.
        playback.keepSoundsMissing(from: Set(prepared.buffers.keys).union(prepared.lostSounds.keys))
        forgetDevice(isReachable: true)
        host.setOutput(output)
        do {
            try host.install(newDevice)
            playback.adoptSounds(of: prepared)
        } catch {
            // The new context would not go current: behave as a loss, the retries reopen `output`.
            logger.error("\(call): \(error)")
            _ = session.markDeviceLost()
            announceDeviceLoss(wasActive: wasActive, held: [])
            return
        }
        logger.info("switched output to \(output) (\(newDevice.opened.name))")
        emitOutputStarted()
        if wasActive {
            _ = playback.resume(resumesHeld: true)
        } else {
            // Interrupted: keep output stopped and the context NULL until the end.
            host.deactivate()
        }
    }

    /// The audio server died under a real-time device: the loss begins now, as when
    /// ALC_CONNECTED goes false (offline and null-backend devices never play through a server).
    func loseDeviceWithServer() {
        guard !configuration.output.isOffline, host.currentOutput != .null, host.isOpen else { return }
        logger.warning("the audio server went away with the engine's stream: the device is lost")
        loseDevice(isReachable: false)
    }

    /// The device's mixer stands still since its audio server went away
    /// (``DeviceHost/isMixerLostWithServer``): the device is lost, as when ALC_CONNECTED goes
    /// false. For backends that never report their server's death (OpenAL Soft 1.22 to 1.24's
    /// native PipeWire backend) on a stream the engine's connection did not see as ours.
    func loseDeviceWithStalledMixer() {
        guard host.isOpen else { return }
        logger.warning("the mixer stands still since the audio server went away: the device is lost")
        loseDevice(isReachable: false)
    }

    /// The audio server went away without the engine's stream (as far as the connection saw):
    /// the host remembers when, so that a mixer standing still then is a loss, not a stall held
    /// for good.
    func audioServerWentAway() {
        guard !configuration.output.isOffline, host.isOpen else { return }
        host.noteAudioServerGone(now: .now)
    }

    /// The audio server is there again: a lost device is reopened now, without waiting out its
    /// backoff (a failure goes back to the backoff schedule). Returns the attempt the caller
    /// runs off the lock (see ``reopenStep(now:)``).
    func reopenNowIfLost() -> DevicePreparation? {
        guard !configuration.output.isOffline else { return nil }
        return reopenNow()
    }

    /// A reopen step now, whatever the backoff, on a lost device (nil on one that is not).
    private func reopenNow() -> DevicePreparation? {
        guard !host.isOpen, session.isDeviceLost else { return nil }
        let now = BootInstant.now
        host.reopenNow(now)
        return reopenStep(now: now)
    }

    /// The engine plays to an open `.systemDefault` device, which follows the server's default sink.
    var isOnSystemDefault: Bool {
        host.currentOutput == .systemDefault && host.isOpen
    }

    /// How the output starts over once it was left behind its server after a stall
    /// (``MixerStallWatch/Change/leftBehind(seconds:)``).
    enum OutputRestart {
        /// The device moves in place to the output it plays to: a new stream, every source,
        /// buffer and position kept, the sources held until it runs (OpenAL Soft 1.22 and later).
        case inPlace(OutputReopen)
        /// A new device on the same output, everything moved to it as a switch moves it (1.19).
        case rebuild(DevicePreparation)
    }

    /// The output was left behind its server: it starts over on a new stream of the same
    /// output, as the server then plays it from where it is. The first half, under the lock:
    /// what the caller runs off it; nil when no restart is due.
    func restartOutputIfDue() -> OutputRestart? {
        guard host.takeOutputRestartDue() else { return nil }
        if let reopen = host.reopenInPlace() { return .inPlace(reopen) }
        return prepareRestartRebuild().map { .rebuild($0) }
    }

    /// The second half of a restart in place: false when it failed, and the caller rebuilds
    /// instead (``prepareRestartRebuild()``).
    func outputRestarted(_ reopen: OutputReopen, succeeded: Bool, seconds: Double) -> Bool {
        host.restartedInPlace(reopen, succeeded: succeeded, seconds: seconds, now: .now)
    }

    /// A new device on the output the engine plays to, for a restart that cannot happen in
    /// place; nil unless a device is open.
    func prepareRestartRebuild() -> DevicePreparation? {
        guard host.isOpen else { return nil }
        return try? prepareSwitch(to: host.currentOutput)
    }

    /// The second half of a rebuilt restart, with the device `prepared` opened off the lock:
    /// the engine moves to it as a switch does. Returns the preparation when it is no longer
    /// wanted (a loss, a switch or another install meanwhile changed the reopen epoch it was
    /// made in): the caller discards it off the lock.
    func finishRestart(_ prepared: DevicePreparation) -> DevicePreparation? {
        guard host.isOpen, prepared.epoch == host.currentReopenEpoch else { return prepared }
        let output = host.currentOutput
        if let error = prepared.failure {
            logger.error("the output could not start over on a new device: \(error)")
            return nil
        }
        do {
            try switchDevice(to: output, opened: prepared)
            logger.info("the output started over on a new device")
        } catch {
            logger.error("the output could not start over on a new device: \(error)")
        }
        return nil
    }

    /// The server's default sink moved and the server moved our stream there already (OpenAL
    /// Soft's `allow-moves`): it plays on, uninterrupted, on the new sink, and
    /// ``DeviceEvent/routeChanged(from:to:)`` says so.
    func defaultSinkMovedOurStream(from old: String, to new: String) {
        guard isOnSystemDefault else { return }
        logger.info("the default sink moved from \(old) to \(new): the server moved our stream there")
        events.emit(DeviceEvent.routeChanged(from: old, to: new))
    }

    /// The server's default sink moved without our stream, on a library that moves a device in
    /// place (ALC_SOFT_reopen_device, OpenAL Soft 1.22 and later): the device is reopened on the
    /// new default with every source, buffer and position kept and nothing held, and
    /// ``DeviceEvent/routeChanged(from:to:)`` says so. False where it cannot; the caller then
    /// rebuilds on the new default (``prepareToFollowDefaultSink()``), 1.19's only way.
    ///
    /// This is the first half, under the lock: the move the caller runs off the lock, nil where
    /// the engine does not follow or the library cannot move in place.
    func reopenForDefaultSink() -> OutputReopen? {
        guard isOnSystemDefault else { return nil }
        return host.reopenOnSystemDefault()
    }

    /// The second half, under the lock: true when the move `succeeded` on the device still open
    /// (routeChanged raised); false sends the caller to the rebuild.
    func defaultSinkReopened(_ reopen: OutputReopen, succeeded: Bool, seconds: Double, from old: String, to new: String) -> Bool {
        guard isOnSystemDefault, host.reopened(reopen, succeeded: succeeded, seconds: seconds) else { return false }
        logger.info("the default sink moved from \(old) to \(new): the device was reopened there in place")
        events.emit(DeviceEvent.routeChanged(from: old, to: new))
        return true
    }

    /// The server's default sink moved without our stream: on `.systemDefault`, playback moves
    /// as ``switchDevice(to:)`` moves it (a new device on the server's default, everything
    /// kept), and ``DeviceEvent/routeChanged(from:to:)`` says so. A named or null output stays
    /// put; a lost device reopens on the new default by itself. A failing open is logged and
    /// leaves the engine where it was. This is the first half, under the lock: nil when the
    /// engine does not follow, else the new device the caller opens (and uploads to) off the lock.
    func prepareToFollowDefaultSink() -> DevicePreparation? {
        guard isOnSystemDefault else { return nil }
        return try? prepareSwitch(to: .systemDefault)
    }

    /// The second half, under the lock, with the device `prepared` opened off it (no wait for
    /// its output to start: the update raises outputStarted once it runs). Returns the
    /// preparation when the engine no longer follows (another switch, a loss meanwhile): the
    /// caller discards it off the lock.
    func followDefaultSink(from old: String, to new: String, prepared: DevicePreparation) -> DevicePreparation? {
        guard isOnSystemDefault else { return prepared }
        do {
            try switchDevice(to: .systemDefault, opened: prepared)
            logger.info("the default sink moved from \(old) to \(new): playback follows on a new device")
            events.emit(DeviceEvent.routeChanged(from: old, to: new))
        } catch {
            defaultSinkNotFollowed(from: old, to: new, error: error)
        }
        return nil
    }

    /// A failing open leaves the engine where it was; it is logged.
    func defaultSinkNotFollowed(from old: String, to new: String, error: any Error) {
        logger.error("the default sink moved from \(old) to \(new), but playback could not follow: \(error)")
    }

    /// Raises ``DeviceEvent/outputStarted(afterSeconds:)`` when the new device's output runs;
    /// otherwise the update raises it once it does.
    private func emitOutputStarted() {
        if let startSeconds = host.outputStartSeconds {
            events.emit(DeviceEvent.outputStarted(afterSeconds: startSeconds))
        }
    }

    /// Polls the device reopened after a loss (its output not running yet) and installs it,
    /// rebuilding every audio object on it, once its output runs or its start timeout passed.
    private func installReopenedIfRunning(now: BootInstant) {
        guard host.hasReopening else { return }
        do {
            try rebuildDevice(waitSeconds: 0)
        } catch {
            host.reopenFailed(now: now, error: error)
        }
    }

    /// The update's step while a real-time device is lost: a device already reopened is
    /// polled and installed once its output runs; otherwise, when a retry is due (100 ms after
    /// the loss, then backing off, doubling to 2 s), returns the attempt the caller runs with
    /// the engine lock released (open, upload every sound) and hands back to
    /// ``finishReopen(_:now:)``.
    func reopenStep(now: BootInstant) -> DevicePreparation? {
        // Offline, only reconnectDevice() gets here (the update never reopens a loopback device).
        guard !host.isOpen, session.isDeviceLost else { return nil }
        if host.hasReopening {
            installReopenedIfRunning(now: now)
            return nil
        }
        guard let epoch = host.beginReopenAttempt(now: now) else { return nil }
        return DevicePreparation(output: host.currentOutput, opener: host.deviceOpener, uploads: playback.soundUploads, epoch: epoch)
    }

    /// ``SoundEngine/reconnectDevice()`` on a device that is lost: a reopen attempt now,
    /// whatever the backoff, run off the lock like the engine's own retries (offline too: the
    /// loopback device opens off the lock and its file sounds are decoded there, and the caller
    /// waits for it, so the render stays deterministic). nil when no device is lost, or when a
    /// reopened device is already starting.
    func prepareReconnect() -> DevicePreparation? {
        guard !host.hasReopening else { return nil }
        return reopenNow()
    }

    /// Takes the result of a reopen attempt run off the lock. A device opened in an epoch
    /// still current (no switch, close, install or new loss since) becomes the device starting
    /// after the loss, with its sounds (sounds loaded meanwhile are uploaded when it is
    /// installed, those unloaded meanwhile deleted); it is installed now if its output already
    /// runs. Returns the preparation when it is stale: the caller discards it off the lock.
    func finishReopen(_ attempt: DevicePreparation, now: BootInstant) -> DevicePreparation? {
        guard let opened = attempt.opened else {
            host.reopenAttemptFailed(epoch: attempt.epoch, now: now, error: attempt.failure ?? InterludeError(.deviceUnavailable, "reopen: no device"))
            return nil
        }
        guard session.isDeviceLost, host.adoptReopened(opened, epoch: attempt.epoch) else { return attempt }
        playback.adoptSounds(of: attempt)
        installReopenedIfRunning(now: now)
        return nil
    }
}
