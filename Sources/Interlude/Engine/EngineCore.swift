import Logging

/// The engine's coordinator: it builds the rooms, and runs each update and offline render
/// through them. The state is the rooms' own; this type keeps none but the rooms, whether the
/// engine was shut down, and its driver thread's pace (parked or not). It is reached only through ``SoundEngine``'s lock.
///
/// The rooms: ``DeviceHost`` (the device and the context), ``AudioSession`` and
/// ``SessionController`` (interruptions), ``HeldPlayback`` (what plays, held, resumed and moved to a new device),
/// ``SessionSnapshots`` (the saved state), ``OutputRouter`` (device loss, rebuild,
/// switching), ``MusicConductor`` (music time), ``VoiceTable``,
/// ``VoicePool``, ``VoicePlayer``, ``StreamedVoiceStart``, ``VoiceSources`` and ``SourceAssignment`` (voices), ``ALRenderer`` (sources and effects),
/// ``SoundBank`` (sounds; their buffers in ``SoundBufferStore``), ``StreamSet`` (streamed tracks), ``GroupMixer`` (groups and reverb
/// zones), ``SpatialWorld`` (listener and distance), ``SoundDesign`` (cues, parameters, mix
/// snapshots), ``UpdateClock``, ``ALGate`` and ``EventQueue``.
///
/// `@unchecked Sendable`: an EngineCore is only ever reached through ``SoundEngine``'s mutex,
/// which serialises every access; region checking cannot see through the closures that take it.
final class EngineCore: @unchecked Sendable {
    private let configuration: SoundEngine.Configuration
    private let clock: UpdateClock
    // The rooms, each under the one name the facade and the tests use.
    /// The device and its context.
    let device: DeviceHost
    /// Runs AL work when the session is active and a device is open.
    let al: ALGate
    /// The events raised under the lock, delivered after it.
    let events = EventQueue()
    /// The loaded sounds.
    let sounds: SoundBank
    /// Groups and reverb zones.
    let groups = GroupMixer()
    /// The listener, distance model and doppler.
    let world: SpatialWorld
    /// The voices' slots and entries (for statistics and tests).
    let voiceTable: VoiceTable
    /// Sources, effects and filters of the voices (for statistics and tests).
    let alRenderer: ALRenderer
    /// The game's commands to voices.
    let voices: VoicePlayer
    /// Starts a decoder's track as a streamed voice.
    let streamedVoices: StreamedVoiceStart
    /// The voices' sources, and each update's servicing of them.
    let voiceSources: VoiceSources
    /// Who holds a real source: the budget, admissions, the pool's plan.
    let sourceAssignment: SourceAssignment
    /// The streamed tracks.
    let streams: StreamSet
    /// Music time: transitions and stingers waiting for a boundary, and beats.
    let conductor: MusicConductor
    /// The tracks of stems defined by name.
    let trackLibrary = TrackLibrary()
    /// Interruptions, and resuming what was held.
    let session: SessionController
    /// The engine's state as a snapshot, and its hand-off to the writer.
    let snapshots: SessionSnapshots
    /// Device loss and rebuild, reopen attempts, switching, following the default sink.
    let router: OutputRouter
    /// The stream decode thread: ``SoundEngine/shutdown()`` waits for it outside the lock.
    let decodeWorker: DecodeWorker
    /// Cues, parameters and mix snapshots.
    let soundDesign: SoundDesign
    /// The snapshot writer (nil without a state path): the facade waits on it outside the lock.
    let snapshotWriter: SnapshotWriter?
    @exclusivity(unchecked) private var isShutDown = false
    /// The engine's driver thread (nil offline, without ``SoundEngine/Configuration/runsDriverThread``
    /// and after shutdown): woken by a call that gives a parked driver work.
    @exclusivity(unchecked) private var driver: DriverThread?
    /// The driver thread sleeps for ``idleCheckIntervalSeconds`` at a time: the last update
    /// found the engine idle (see ``isIdle``).
    @exclusivity(unchecked) private var isDriverParked = false

    /// - Parameter events: where the snapshot writer reports a failed write, from its own thread.
    init(configuration: SoundEngine.Configuration, engineID: Int, logger: Logger, events sinks: EventSinks) throws {
        self.configuration = configuration
        let audioSession = AudioSession(policy: configuration.resumePolicy, logger: logger, isOffline: configuration.output.isOffline)
        device = try DeviceHost(configuration: configuration, logger: logger)
        al = ALGate(host: device, session: audioSession, logger: logger)
        sounds = SoundBank(gate: al)
        clock = if case .offline(let sampleRate, _) = configuration.output {
            UpdateClock(offlineSampleRate: sampleRate)
        } else {
            UpdateClock(offlineSampleRate: nil)
        }
        world = SpatialWorld(configuration: configuration)
        voiceTable = VoiceTable(engineID: engineID)
        alRenderer = ALRenderer(sounds: sounds, mixer: groups, gate: al)
        // Started once nothing before it can throw; the one later failure stops it.
        decodeWorker = try DecodeWorker(logger: logger)
        sourceAssignment = SourceAssignment(configuration: configuration, table: voiceTable, renderer: alRenderer,
                                            mixer: groups, world: world, clock: clock, gate: al)
        voiceSources = VoiceSources(table: voiceTable, renderer: alRenderer, mixer: groups, gate: al, events: events,
                                    assignment: sourceAssignment)
        voices = VoicePlayer(configuration: configuration, table: voiceTable, mixer: groups, sounds: sounds,
                             gate: al, events: events, sources: voiceSources)
        streamedVoices = StreamedVoiceStart(configuration: configuration, logger: logger, table: voiceTable,
                                            worker: decodeWorker, player: voices)
        streams = StreamSet(configuration: configuration, engineID: engineID, logger: logger, mixer: groups, gate: al,
                            events: events, worker: decodeWorker)
        conductor = MusicConductor(engineID: engineID, streams: streams, voices: voices, events: events, gate: al, clock: clock,
                                   isOffline: configuration.output.isOffline)
        soundDesign = SoundDesign(seed: configuration.seed, table: voiceTable, player: voices, mixer: groups, events: events,
                                  clock: clock)
        snapshotWriter = configuration.statePath.map { SnapshotWriter(path: $0, logger: logger, events: sinks) }
        snapshots = SessionSnapshots(voices: voiceSources, streams: streams, mixer: groups, world: world, design: soundDesign,
                                     writer: snapshotWriter)
        let playback = HeldPlayback(logger: logger, gate: al, voices: voiceSources, streams: streams,
                                    renderer: alRenderer, sounds: sounds, world: world)
        session = SessionController(session: audioSession, host: device, gate: al, events: events, playback: playback,
                                    snapshots: snapshots)
        router = OutputRouter(configuration: configuration, logger: logger, session: audioSession, host: device,
                              events: events, playback: playback, snapshots: snapshots)
        if let startSeconds = device.outputStartSeconds {
            events.emit(DeviceEvent.outputStarted(afterSeconds: startSeconds))
        }
        do {
            _ = try device.withContext { _ in try SpatialRenderer.sendAll(of: world) }
        } catch {
            device.closeDevice(isReachable: true)
            decodeWorker.stop()
            throw error
        }
    }

    /// The engine was shut down: every call after it throws `.shutDown` or does nothing.
    var hasShutDown: Bool { isShutDown }

    /// Throws `.shutDown` naming `call` after shutdown.
    func checkAlive(_ call: @autoclosure () -> String) throws {
        if isShutDown {
            throw InterludeError(.shutDown, "\(call()): the engine has been shut down")
        }
    }

    // MARK: The update

    /// One tick: completions, positions, stream refills, fades, device checks and reopening.
    /// Each subsystem's AL errors are caught on their own: one failing voice never starves the
    /// soundtrack. Stream refills queue the chunks the decode worker has ready; with
    /// `waitsForDecode` (an offline render) they wait for it to fill every free buffer. Returns
    /// the reopen attempt due while a real-time device is lost: the caller runs it with the
    /// engine lock released and hands it to ``OutputRouter/finishReopen(_:now:)``.
    /// `now` is read only when something needs the wall clock: a real device's output start and
    /// its mixer's pace, or a reopen step.
    @discardableResult
    func update(elapsedSeconds: Double, now: @autoclosure () -> BootInstant,
                waitsForDecode: Bool = false) -> DevicePreparation? {
        guard !isShutDown else { return nil }
        // Parameters and snapshots are state, not sound: they move while interrupted too.
        soundDesign.advance(bySeconds: elapsedSeconds)
        if device.isOpen, session.isActive {
            // Read on every update: on a lost device OpenAL reports every source stopped at offset
            // 0, and the steps below would act on that (one-shots ended, positions lost).
            if !device.isLoopback && !device.isConnected {
                router.loseDevice(isReachable: false)
                return nil
            }
            if let startSeconds = device.pollOutputStart(now: now()) {
                events.emit(DeviceEvent.outputStarted(afterSeconds: startSeconds))
            }
            // The mixer standing still, or running again after that: sources held or played on.
            let mixerChange = device.watchMixer(now: now())
            if device.isMixerLostWithServer {
                router.loseDeviceWithStalledMixer()
                return nil
            }
            let isHoldingForMixer = device.isMixerStalled || mixerChange == .running
            clock.countUpdate()
            groups.advance(bySeconds: elapsedSeconds, playingCounts: sourceAssignment.playingCountsByGroup)
            for group in groups.takePausesDue() { setGroupPaused(true, index: group) }
            for group in groups.takeFadesFinished() { events.emit(DesignEvent.groupFadeFinished(group)) }
            al.run("update") { _ in
                // One batch: every property set here reaches the mixer at once.
                al.attempt("update: deferred updates") {
                    try al.deferringUpdates {
                        al.attempt("update: voices") {
                            try voiceSources.service(elapsedSeconds: elapsedSeconds, waitsForDecode: waitsForDecode,
                                                        readsPositions: clock.updateCount % VoiceSources.positionReadPeriod == 0)
                        }
                        sendChanges()
                        if groups.isDirty {
                            al.attempt("update: group gains") { try applyGroupGains() }
                        }
                        if groups.isLowPassDirty {
                            al.attempt("update: group low-passes") { try applyGroupLowPasses() }
                        }
                        al.attempt("update: streams") {
                            try streams.service(elapsedSeconds: elapsedSeconds, waitsForDecode: waitsForDecode)
                        }
                        conductor.reachDue()
                    }
                }
                if isHoldingForMixer {
                    al.attempt("update: sources held while the mixer stands still") { try holdWhileMixerStalls() }
                }
            }
            groups.clearDirty()
            groups.clearLowPassDirty()
        } else if !device.isOpen && !configuration.output.isOffline {
            // Offline, the device comes back only when asked (reconnectDevice): a render must
            // not depend on the wall clock.
            return router.reopenStep(now: now())
        }
        return nil
    }

    /// While the mixer stands still (``MixerStallWatch``), pauses every source that should sound
    /// (again on each update, which costs nothing for a paused one); once it runs again, plays
    /// them on in one call, from the frames they stood at, with every source a play kept from
    /// starting meanwhile. The session is not interrupted: the game sees nothing but late sound.
    /// Meanwhile nothing starts a source, neither a call nor the update's refills
    /// (``ALGate/startsSources``): a source played and paused again would play for as long as
    /// the thread was preempted in between, and the server's catch-up mixes at about 200 times
    /// real time.
    private func holdWhileMixerStalls() throws {
        let slots = voiceSources.audibleSlots + streams.audibleSlots
        if device.isMixerStalled {
            try alRenderer.pause(slots)
        } else {
            try alRenderer.playHeld(slots)
        }
    }

    /// A real-time update: the clock gives the time since the last. Returns the reopen attempt
    /// to run off the lock, if one is due.
    func updateNow() -> DevicePreparation? {
        update(elapsedSeconds: clock.advanceRealTime(), now: .now)
    }

    /// Sends what the setters changed since the last update (the voices' parameters after their
    /// fades moved on, the listener and the world), in the update's deferred block.
    private func sendChanges() {
        al.attempt("update: voice parameters") { try voiceSources.sendChanges() }
        al.attempt("update: listener and world") { try SpatialRenderer.sendChanges(of: world) }
    }

    /// Pauses or resumes a group's voices and streams where they are (every group's, for
    /// master); a voice paused by itself stays paused when its group resumes.
    func setGroupPaused(_ paused: Bool, index: Int) {
        groups.setPaused(paused, of: index)
        al.run("setGroupPaused") { _ in
            try voiceSources.setGroupPaused(paused, group: index)
            try streams.setGroupPaused(paused, group: index)
            if !paused { try voiceSources.assignSources() }
        }
    }

    /// Reports `command`, given while the session is interrupted, as deferred; nothing while
    /// it is active.
    func noteDeferred(_ command: DeferredCommand) {
        if !session.isActive { events.emitDeferred(command) }
    }

    /// Sends every real voice's and stream's gain after a group gain changed.
    func applyGroupGains() throws {
        try voiceSources.applyGroupGains()
        try streams.applyGroupGains()
    }

    /// Sends every real voice's and stream's low-pass after a mix snapshot changed a group's.
    func applyGroupLowPasses() throws {
        try voiceSources.applyEffects()
        try streams.applyGroupLowPasses()
    }

    /// Renders up to `frameCount` frames offline into `output`, no further than the next update
    /// after the one due now (run first, when due), and returns how many. While the session is
    /// interrupted or the device is lost, output is stopped: the frames are zeros. Each update
    /// waits for the decode worker to fill the streams' free buffers, so what plays never
    /// depends on how fast the worker ran; the caller decodes what it can between stretches,
    /// outside the lock (``DecodeWorker/decodeOnCallingThread()``), so it rarely waits.
    func renderStretch(into output: UnsafeMutablePointer<Float>, frameCount: Int, channelCount: Int) -> Int {
        clock.renderStretch(frameCount: frameCount, intervalFrames: device.updateIntervalFrames, sampleRate: device.sampleRate,
                            update: { elapsed in _ = update(elapsedSeconds: elapsed, now: .now, waitsForDecode: true) },
                            limit: {
            // A music boundary ends the stretch, so what waits for it lands on its frame.
            guard device.isOpen, session.isActive, conductor.isWaiting else { return nil }
            conductor.syncClocks()
            conductor.reachDue()
            return conductor.outputFramesUntilDue(outputRate: device.sampleRate)
        },
                            mix: { stretchFrames in
            if device.isOpen, session.isActive {
                // Changes made since the last update (a render that starts between updates)
                // are sent before the mix, as the update would have.
                if voiceSources.hasChanges || world.hasChanges {
                    al.run("render") { _ in try al.deferringUpdates { sendChanges() } }
                }
                device.render(into: output, frameCount: stretchFrames)
            } else {
                output.update(repeating: 0, count: stretchFrames * channelCount)
            }
        })
    }

    // MARK: The driver's pace

    /// How long a parked driver sleeps between two updates of an idle engine: each checks that
    /// the device is still connected, so a loss while nothing plays is still seen this soon.
    static let idleCheckIntervalSeconds = 0.25

    /// Hands the core its driver thread, which ``endCall()`` wakes.
    func attach(driver: DriverThread) {
        self.driver = driver
    }

    /// The driver thread is parked: the last update found the engine idle.
    var isDriverAsleep: Bool { isDriverParked }

    /// Nothing for an update to do but check the device: no voice (playing, paused or held), no
    /// stream, no fade or ducking under way, no change waiting to be sent, and the output seen
    /// running; or the session is interrupted with its device open, when the update does nothing
    /// at all. Never while a real-time device is lost or reopening: those need their steps.
    private var isIdle: Bool {
        if isShutDown { return true }
        guard device.isOpen else { return false }
        guard session.isActive else { return true }
        return device.isOutputRunning && voiceTable.liveVoiceCount == 0 && streams.isEmpty && !voiceSources.hasChanges
            && !world.hasChanges && !groups.isDirty && groups.isSettled(playingCounts: sourceAssignment.playingCountsByGroup)
    }

    /// What the driver does after its update, with the engine lock released.
    struct DriverWork {
        /// The reopen attempt due while the device is lost.
        var attempt: DevicePreparation?
        /// Pausing or running the output (see ``DeviceHost/idleOutputStep(isIdle:now:)``).
        var outputStep: IdleOutputPause.Step?
        /// Starting the output over (see ``OutputRouter/restartOutputIfDue()``).
        var restart: OutputRouter.OutputRestart?
        /// Seconds the driver sleeps before its next update, unless a call wakes it.
        var waitSeconds: Double
    }

    /// The driver thread's update: runs a real-time update, then parks the driver when the
    /// engine is idle, and pauses the output once it has been idle a while (runs it again once
    /// it is not). Returns what the driver does next off the lock.
    func driverUpdate() -> DriverWork {
        let attempt = updateNow()
        isDriverParked = attempt == nil && isIdle
        let outputStep = session.isActive ? device.idleOutputStep(isIdle: isDriverParked, now: .now) : nil
        let restart = router.restartOutputIfDue()
        let interval = configuration.updateIntervalSeconds
        if isDriverParked {
            return DriverWork(attempt: attempt, outputStep: outputStep, restart: restart, waitSeconds: max(interval, Self.idleCheckIntervalSeconds))
        }
        let untilMix = device.secondsUntilNextMix(now: .now)
        return DriverWork(attempt: attempt, outputStep: outputStep, restart: restart, waitSeconds: untilMix ?? interval)
    }

    /// A call begins under the engine lock. While the driver is parked, the update clock
    /// restarts (as if the driver had just updated: a voice made virtual or a fade begun by the
    /// call counts its time from now, as it would with the driver ticking).
    func beginCall() {
        if isDriverParked { clock.restartRealTime() }
    }

    /// A call ends under the engine lock (thrown or not): one that left the update work to do
    /// wakes the parked driver.
    func endCall() {
        guard isDriverParked, !isIdle else { return }
        isDriverParked = false
        device.noteWork()
        driver?.wakeUp()
    }

    // MARK: Shutdown

    /// Saves the snapshot when configured, stops everything, frees every AL name and closes the
    /// device, and asks the decode worker to end (the caller waits for it outside the lock).
    /// Idempotent.
    func shutDown() {
        guard !isShutDown else { return }
        snapshots.saveIfConfigured()
        router.forgetDevice(isReachable: device.isConnected)
        voiceTable.removeAll()
        conductor.removeAll()
        streams.removeAll()
        decodeWorker.requestStop()
        driver = nil
        isDriverParked = false
        isShutDown = true
    }
}
