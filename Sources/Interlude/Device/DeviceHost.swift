import Logging

/// The engine's output: the open `ALDevice` (nil while it is lost), the output it was opened
/// on, reopening with backoff (each attempt's epoch), and the current context. It is the only
/// code that makes the engine's context current, sets it to NULL, or closes a device, always
/// under the process-wide ``ALContextLock`` (a ``DevicePreparation`` makes a new device's
/// context current, under the same lock, before the device is installed).
final class DeviceHost {
    private let configuration: SoundEngine.Configuration
    private let logger: Logger
    private let opener: DeviceOpener
    /// The open device, nil while it is lost or after shutdown.
    @exclusivity(unchecked) private var device: ALDevice?
    /// The output in use: the configured one until a switch moves to another. A reopen after a
    /// loss opens this one.
    @exclusivity(unchecked) private var output: OutputDevice
    /// When the next reopen attempt is due while the device is lost (nil offline, where only an
    /// explicit reconnect reopens, and while a device is open).
    @exclusivity(unchecked) private var nextReopenInstant: BootInstant?
    @exclusivity(unchecked) private var reopenBackoffSeconds = DeviceHost.firstReopenBackoffSeconds
    @exclusivity(unchecked) private var reopenAttempts = 0
    /// The open device's start: kept until its output is seen running, and after, for its
    /// start time (nil while no device is open).
    @exclusivity(unchecked) private var outputStart: OutputStart?
    /// A device reopened after a loss whose output does not run yet: it becomes the engine's
    /// once it does (or once the start timeout passes).
    @exclusivity(unchecked) private var reopening: OutputStart?
    /// Changes whenever what a reopen attempt would install changes (a loss, a close, an
    /// install, another output): an attempt made off the lock in an older epoch is discarded.
    @exclusivity(unchecked) private var reopenEpoch = 0
    /// The epoch of the reopen attempt under way off the lock, if any.
    @exclusivity(unchecked) private var attemptEpoch: Int?
    /// Whether the running device's mixer stands still; begun anew whenever the device or the
    /// session's activity changes, since the clock then stands still by design.
    @exclusivity(unchecked) private var mixerWatch = MixerStallWatch()
    /// The watch found the output left behind its server (``MixerStallWatch/Change/leftBehind(seconds:)``):
    /// the driver starts it over after its update (``takeOutputRestartDue()``).
    @exclusivity(unchecked) private var isOutputRestartDue = false
    /// When the running device's mixer mixes next; begun anew with ``mixerWatch``. nil without
    /// a real device, and unless the driver updates before each mix.
    @exclusivity(unchecked) private var mixerPace: MixerPace?
    /// Pauses the open real device's output while the engine is idle (nil offline and while
    /// no device is open).
    @exclusivity(unchecked) private var idlePause: IdleOutputPause?
    /// Since when the engine has been idle with its output running (nil while it is not idle).
    @exclusivity(unchecked) private var idleSinceInstant: BootInstant?
    /// When the engine's audio-server connection last dropped, in the wall seconds of
    /// ``mixerWatch`` (nil before it ever did): a stall around then is the device's loss
    /// (``MixerStallWatch/isLost(serverGoneWallSeconds:)``). Kept across the watch's restarts.
    @exclusivity(unchecked) private var serverGoneWallSeconds: Double?
    /// The wall clock's origin for ``mixerWatch`` and ``mixerPace``.
    private let createdInstant = BootInstant.now

    /// The first wait before reopening a lost device; it doubles after each failure.
    static let firstReopenBackoffSeconds = 0.1
    /// The longest wait between two reopen attempts.
    static let longestReopenBackoffSeconds = 2.0

    /// Backend periods OpenAL Soft 1.19 buffers by default (``OutputLatency/balanced``).
    static let defaultPeriodCount = 3

    /// Opens the configured output, waits (up to the configured start timeout) until its output
    /// runs, and makes its context current.
    init(configuration: SoundEngine.Configuration, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        self.opener = DeviceOpener(configuration: configuration, logger: logger)
        let output = NullBackend.resolve(configuration.output, logger: logger)
        self.output = output
        let start = try opener.start(output)
        if !start.wait(timeoutSeconds: configuration.outputStartTimeoutSeconds) {
            logger.warning("output \(start.opened.name) did not start within \(configuration.outputStartTimeoutSeconds) s")
        }
        try install(start)
    }

    // MARK: What is open

    /// A device is open.
    var isOpen: Bool { device != nil }
    /// The open device: tests keep it to count its AL names after shutdown.
    var openDevice: ALDevice? { device }
    /// The output the engine plays to now.
    var currentOutput: OutputDevice { output }
    /// The open device's name.
    var deviceName: String? { device?.name }
    /// The open device is OpenAL Soft's loopback device (offline rendering).
    var isLoopback: Bool { device?.isLoopback ?? false }
    /// False once a real device reports ALC_CONNECTED = 0.
    var isConnected: Bool { device?.isConnected ?? false }
    /// HRTF is on on the open device.
    var isHRTFEnabled: Bool { device?.isHRTFEnabled ?? false }
    /// AL names alive on the open device, for statistics.
    var liveSourceCount: Int { device?.liveSourceCount ?? 0 }
    var liveBufferCount: Int { device?.liveBufferCount ?? 0 }
    var liveEffectObjectCount: Int { device?.liveEffectObjectCount ?? 0 }
    /// The open device's context is the current one.
    var isContextCurrent: Bool { device?.context.isCurrent ?? false }
    /// How many times a lost device was tried again, successfully or not.
    var reopenAttemptCount: Int { reopenAttempts }
    /// A reopen attempt is under way off the engine lock (opening a device, uploading sounds).
    var isReopenInFlight: Bool { attemptEpoch != nil }
    /// A device reopened after a loss is starting (not installed yet).
    var hasReopening: Bool { reopening != nil }
    /// The open device's output has been seen running (see ``OutputStart``).
    var isOutputRunning: Bool { outputStart?.isRunning ?? false }
    /// The driver paused the output because the engine was idle (see ``idleOutputStep(isIdle:now:)``).
    var isOutputPausedForIdle: Bool { idlePause?.isPausedForIdle ?? false }
    /// The open real device's period in milliseconds (1000 / ALC_REFRESH): the latency setting
    /// in effect. nil offline and while no device is open.
    var outputPeriodMilliseconds: Double? {
        guard let device, !device.isLoopback else { return nil }
        return 1000 / device.updatesPerSecond
    }
    /// Seconds the open device took from opening until its output ran; nil while it has not,
    /// and offline, where there is no real output to start.
    var outputStartSeconds: Double? { isLoopback ? nil : outputStart?.startSeconds }

    /// The output rate.
    var sampleRate: Int {
        if case .offline(let sampleRate, _) = output { return sampleRate }
        return device?.sampleRate ?? 48_000
    }

    /// Frames between offline updates (0 on a real device).
    var updateIntervalFrames: Int {
        guard case .offline(let sampleRate, _) = output else { return 0 }
        return max(1, Int((Double(sampleRate) * configuration.updateIntervalSeconds).rounded()))
    }

    // MARK: Opening

    /// Opens devices for this engine; runs without the engine lock.
    var deviceOpener: DeviceOpener { opener }

    /// After a loss: opens the current output again under the lock (counting the attempt; only
    /// an offline reconnect, whose loopback device opens at once) unless a device already
    /// reopened is starting, then waits up to `waitSeconds` (0: reads its clock once)
    /// for its output to run. Installs it, and returns true, once it runs or once the start
    /// timeout has passed since it opened; false while it is still starting.
    func reopenWhenRunning(waitSeconds: Double) throws -> Bool {
        let start: OutputStart
        if let reopening {
            start = reopening
        } else {
            reopenAttempts += 1
            start = try opener.start(output)
            reopening = start
        }
        let timeoutSeconds = configuration.outputStartTimeoutSeconds
        let isRunning = waitSeconds > 0
            ? start.wait(timeoutSeconds: min(timeoutSeconds, start.elapsedSeconds() + waitSeconds))
            : start.poll()
        guard isRunning || start.elapsedSeconds() >= timeoutSeconds else { return false }
        reopening = nil
        try install(start)
        return true
    }

    /// Reads the open device's clock while its output has not been seen running; returns its
    /// start time in seconds when it is seen running now, nil otherwise.
    func pollOutputStart(now: @autoclosure () -> BootInstant) -> Double? {
        guard let outputStart, !outputStart.isRunning, outputStart.poll(now: now()) else { return nil }
        return outputStart.startSeconds
    }

    /// Reads the running real device's clock into its ``MixerStallWatch``; returns the change
    /// the reading made. nil offline, before the output runs, and without the device clock.
    func watchMixer(now: @autoclosure () -> BootInstant) -> MixerStallWatch.Change? {
        guard let device, !device.isLoopback, isOutputRunning, !isOutputPausedForIdle,
              let clock = device.clockNanoseconds else { return nil }
        let clockSeconds = Double(clock) * 1e-9, wallSeconds = now().seconds(since: createdInstant)
        let change = mixerWatch.observe(clockSeconds: clockSeconds, wallSeconds: wallSeconds)
        if mixerWatch.isStalled || change == .running {
            logger.debug("the mixer's clock of \(device.name) reads \(clockSeconds) s at \(wallSeconds) s")
        }
        // Only the driver's pace before each mix needs it: `.everyUpdateInterval` pays nothing.
        if configuration.updateTiming == .beforeEachMix {
            if mixerPace == nil { mixerPace = MixerPace(updatesPerSecond: device.updatesPerSecond) }
            mixerPace?.observe(clockSeconds: clockSeconds, wallSeconds: wallSeconds)
        }
        switch change {
        case .stalled:
            logger.notice("the mixer of \(device.name) stood still for \(MixerStallWatch.stallSeconds) s: holding the sources until it runs again")
        case .running:
            logger.notice("the mixer of \(device.name) runs again: the held sources play on")
        case .leftBehind(let seconds):
            logger.notice("the server of \(device.name) skipped \(Int(seconds * 1000)) ms of its stream after it stood still: what the mixer makes lands behind where it plays, so the output starts over, the sources still held")
            isOutputRestartDue = true
        case nil:
            break
        }
        return change
    }

    /// A move of the open `.systemDefault` device to the system's default output in place
    /// (``ALDevice/reopen(on:)``, OpenAL Soft 1.22 and later), for the caller to run off the
    /// lock: its context, sources, buffers and positions kept, nothing rebuilt. Nil where the
    /// library cannot (1.19).
    func reopenOnSystemDefault() -> OutputReopen? {
        output == .systemDefault ? reopenInPlace() : nil
    }

    /// A move from ``reopenOnSystemDefault()`` has run off the lock: true when it `succeeded`
    /// on the device still open here. Otherwise (it failed, or the device was lost, switched or
    /// closed meanwhile) false, and the device is whatever the engine holds now.
    func reopened(_ reopen: OutputReopen, succeeded: Bool, seconds: Double) -> Bool {
        guard succeeded, let device, device === reopen.device else { return false }
        device.readNameAfterReopen()
        logger.info("output reopened in place on \(device.name) in \(Int(seconds * 1000)) ms")
        return true
    }

    /// True once after the watch found the output left behind its server: the caller starts it
    /// over (``OutputRouter/restartOutputIfDue()``).
    func takeOutputRestartDue() -> Bool {
        defer { isOutputRestartDue = false }
        return isOutputRestartDue && device != nil
    }

    /// The open device's output, moved in place to the output it plays to (a new stream on
    /// the same output), for the caller to run off the lock. Nil where the library cannot (1.19).
    func reopenInPlace() -> OutputReopen? {
        let name: String? = if case .named(let name) = output { name } else { nil }
        guard let device, !device.isLoopback, let call = device.reopen(on: name) else { return nil }
        return OutputReopen(device: device, call: call)
    }

    /// A restart from ``reopenInPlace()`` has run off the lock: true when it `succeeded` on the
    /// device still open here. The watch goes on holding the sources and judges the new stream
    /// from now: they play on once it runs.
    func restartedInPlace(_ reopen: OutputReopen, succeeded: Bool, seconds: Double, now: BootInstant) -> Bool {
        guard reopened(reopen, succeeded: succeeded, seconds: seconds), let clock = device?.clockNanoseconds else { return false }
        mixerWatch.judgeAnew(clockSeconds: Double(clock) * 1e-9, wallSeconds: now.seconds(since: createdInstant))
        mixerPace = nil
        return true
    }

    /// The open device's mixer stands still (see ``MixerStallWatch``).
    var isMixerStalled: Bool { mixerWatch.isStalled }

    /// The engine's audio-server connection dropped now, whether or not it showed our stream
    /// on the server (see ``isMixerLostWithServer``).
    func noteAudioServerGone(now: BootInstant) {
        serverGoneWallSeconds = now.seconds(since: createdInstant)
    }

    /// The open device's mixer stands still since about when the audio server went away: its
    /// output will not run again (``MixerStallWatch/isLost(serverGoneWallSeconds:)``).
    /// Workaround for OpenAL Soft 1.22 to 1.24's native PipeWire backend, which never reports
    /// a disconnect; a backend that does (PulseAudio, ALSA) loses the device by ALC_CONNECTED
    /// first.
    var isMixerLostWithServer: Bool { mixerWatch.isLost(serverGoneWallSeconds: serverGoneWallSeconds) }

    /// Seconds from `now` until just before the running real device's next mix but one half a
    /// period away (see ``MixerPace``): when the driver's next update is best made. nil unless
    /// ``UpdateTiming/beforeEachMix``, until its clock has been read, and without a real device,
    /// its clock or a running mixer.
    func secondsUntilNextMix(now: BootInstant) -> Double? {
        guard let device, !device.isLoopback, isOutputRunning, !isOutputPausedForIdle, let mixerPace, !mixerWatch.isStalled else {
            return nil
        }
        let margin = min(Self.updateMarginSeconds, mixerPace.mixPeriodSeconds / 4)
        return mixerPace.secondsUntilNextMix(wallSeconds: now.seconds(since: createdInstant), marginSeconds: margin)
    }

    /// How long before a mix the driver's update is aimed: its own work (about 0.1 ms) and a
    /// late wake-up on a busy machine.
    static let updateMarginSeconds = 0.002

    /// Takes the started device as the engine's device and makes its context current. On
    /// failure the new device is closed and the host keeps no device.
    func install(_ start: OutputStart) throws {
        let newDevice = start.opened
        do {
            try ALContextLock.run {
                try newDevice.context.makeCurrent()
                try newDevice.prepareContext(resampler: configuration.resampler)
            }
        } catch {
            Self.tearDown(newDevice, isReachable: true)
            throw error
        }
        device = newDevice
        outputStart = start
        idlePause = newDevice.isLoopback ? nil : IdleOutputPause(device: newDevice)
        idleSinceInstant = nil
        mixerWatch = MixerStallWatch()
        mixerPace = nil
        // The new device plays on whatever server is there now: a drop before it says nothing of it.
        serverGoneWallSeconds = nil
        nextReopenInstant = nil
        reopenEpoch += 1
    }

    /// Starts a reopen attempt when one is due and none of this epoch is under way: counts it
    /// and returns its epoch. The caller opens the device off the lock and hands it to
    /// ``adoptReopened(_:epoch:)`` or ``reopenAttemptFailed(epoch:now:error:)``.
    func beginReopenAttempt(now: BootInstant) -> Int? {
        guard device == nil, reopening == nil, attemptEpoch != reopenEpoch else { return nil }
        guard let due = nextReopenInstant, now >= due else { return nil }
        reopenAttempts += 1
        attemptEpoch = reopenEpoch
        return reopenEpoch
    }

    /// A reopen attempt of `epoch` opened `start`: kept as the device starting after the loss
    /// when the epoch is still current (true); otherwise the caller discards it (false).
    func adoptReopened(_ start: OutputStart, epoch: Int) -> Bool {
        if attemptEpoch == epoch { attemptEpoch = nil }
        guard epoch == reopenEpoch, device == nil, reopening == nil else { return false }
        reopening = start
        return true
    }

    /// A reopen attempt of `epoch` failed: the backoff doubles, unless the attempt is stale.
    func reopenAttemptFailed(epoch: Int, now: BootInstant, error: any Error) {
        if attemptEpoch == epoch { attemptEpoch = nil }
        guard epoch == reopenEpoch else { return }
        reopenFailed(now: now, error: error)
    }

    /// The current reopen epoch, for a switch made while the device is lost.
    var currentReopenEpoch: Int { reopenEpoch }

    /// Plays to `output` from now on (a switch): the next open or reopen opens it; a device of
    /// the old output still starting after a loss is closed. `.systemDefaultOrNull` becomes the
    /// output OpenAL's started backend gives (no probe: OpenAL started with this host's device).
    func setOutput(_ output: OutputDevice) {
        self.output = NullBackend.resolve(output, logger: logger)
        reopenEpoch += 1
        discardReopening()
    }

    /// Closes a device that was opened but never installed (no engine lock needed: nothing
    /// of the engine refers to it).
    static func discard(_ unused: OutputStart) {
        tearDown(unused.opened, isReachable: true)
    }

    private func discardReopening() {
        guard let reopening else { return }
        Self.tearDown(reopening.opened, isReachable: true)
        self.reopening = nil
    }

    /// Frees every AL name on the device and closes it; the host then has no device. With
    /// `isReachable` false (the device is already gone) the names go with the context.
    func closeDevice(isReachable: Bool) {
        reopenEpoch += 1
        discardReopening()
        guard let device else { return }
        idlePause?.retire()
        idlePause = nil
        idleSinceInstant = nil
        Self.tearDown(device, isReachable: isReachable)
        self.device = nil
        outputStart = nil
    }

    private static func tearDown(_ device: ALDevice, isReachable: Bool) {
        ALContextLock.run {
            if isReachable, (try? device.context.makeCurrent()) != nil {
                device.deleteAllNames()
            }
            ALContext.clearCurrent()
            device.close()
        }
    }

    // MARK: Context

    /// Runs `body` with the process-wide context lock held and this device's context current.
    /// Returns nil, running nothing, when no device is open.
    func withContext<Result>(_ body: (ALDevice) throws -> Result) throws -> Result? {
        guard let device else { return nil }
        return try device.context.run(leavesCurrent: true) { try body(device) }
    }

    /// Runs `body` with the open device, inside a ``withContext(_:)`` already under way (the lock
    /// is not taken twice). Returns nil when no device is open.
    func withContextAlreadyCurrent<Result>(_ body: (ALDevice) throws -> Result) rethrows -> Result? {
        guard let device else { return nil }
        return try body(device)
    }

    /// An interruption begins, after the sources are paused: pauses the device where
    /// ALC_SOFT_pause_device works, suspends the context and sets the current context to NULL.
    func deactivate() {
        mixerWatch = MixerStallWatch()
        mixerPace = nil
        idleSinceInstant = nil
        if let device, device.isOpen, idlePause?.pauseForInterruption() != true {
            logger.debug("device \(device.name) cannot pause; its paused sources keep it silent")
            device.mixPendingFadeOuts()
        }
        ALContextLock.run {
            if let device, device.isOpen {
                device.context.suspend()
            }
            ALContext.clearCurrent()
        }
    }

    /// An interruption ends: makes the prior context current, processes it, and resumes the
    /// device. Throws when the context cannot be made current.
    func reactivate() throws {
        guard let device else { return }
        mixerWatch = MixerStallWatch()
        mixerPace = nil
        try ALContextLock.run {
            try device.context.makeCurrent()
            device.context.process()
        }
        idlePause?.resumeAfterInterruption()
        idleSinceInstant = nil
    }

    // MARK: Pausing the output while idle

    /// A call gave an idle engine work: an idle pause the driver decided before it is dropped.
    func noteWork() {
        idlePause?.noteWork()
    }

    /// The driver's step for the output, after its update with the session active: once the
    /// engine has been idle for ``SoundEngine/Configuration/idleOutputPauseSeconds``, pause
    /// the output; once it is not idle, run it again. The driver runs the step with the engine
    /// lock released, before its next update, so the pause's state read here is the last step's
    /// outcome: a pause that was dropped or failed is decided again at the next idle update.
    /// Never while the mixer stands still: a frozen server would not answer the pause. nil:
    /// nothing to do (and always without a real device).
    func idleOutputStep(isIdle: Bool, now: @autoclosure () -> BootInstant) -> IdleOutputPause.Step? {
        guard let idlePause else { return nil }
        guard isIdle else {
            idleSinceInstant = nil
            guard idlePause.isPausedForIdle else { return nil }
            // The clock stood still by design: the watch and the pace begin anew.
            mixerWatch = MixerStallWatch()
            mixerPace = nil
            return .resume(idlePause)
        }
        guard !idlePause.isPausedForIdle, !mixerWatch.isStalled, let holdSeconds = configuration.idleOutputPauseSeconds else {
            return nil
        }
        let now = now()
        let since = idleSinceInstant ?? now
        idleSinceInstant = since
        guard now.seconds(since: since) >= holdSeconds else { return nil }
        return .pause(idlePause, workToken: idlePause.workToken)
    }

    // MARK: Offline rendering

    /// Mixes `frameCount` frames from the loopback device into `destination`.
    func render(into destination: UnsafeMutablePointer<Float>, frameCount: Int) {
        device?.render(into: destination, frameCount: frameCount)
    }

    // MARK: Reopening

    /// The device was lost: the first reopen is due after the shortest backoff. Offline, only
    /// an explicit reconnect reopens: a retry timed by the wall clock would end the loss at a
    /// frame that depends on how fast the machine renders.
    func scheduleReopen(now: BootInstant) {
        reopenBackoffSeconds = Self.firstReopenBackoffSeconds
        nextReopenInstant = configuration.output.isOffline ? nil : now.advanced(bySeconds: reopenBackoffSeconds)
    }

    /// Makes a reopen due at once (the audio server back, a switch or a reconnect while the
    /// device is lost), and starts the backoff anew: whatever made it due makes the next tries
    /// worth making soon. A server that has just come back may not take a stream yet (its
    /// session manager still starting), and the tries after a failure then come 0.1 s, 0.3 s,
    /// 0.7 s later, not at the 2 s steps the backoff had reached while the server was away.
    func reopenNow(_ now: BootInstant) {
        reopenBackoffSeconds = Self.firstReopenBackoffSeconds
        nextReopenInstant = now
    }

    /// A retry failed: the backoff doubles, up to its longest.
    func reopenFailed(now: BootInstant, error: any Error) {
        reopenBackoffSeconds = min(Self.longestReopenBackoffSeconds, reopenBackoffSeconds * 2)
        nextReopenInstant = now.advanced(bySeconds: reopenBackoffSeconds)
        logger.debug("reopen failed (\(error)); next try in \(reopenBackoffSeconds) s")
    }
}
