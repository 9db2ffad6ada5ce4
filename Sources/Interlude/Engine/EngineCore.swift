import Logging

/// The engine's coordinator: it builds the rooms, and runs each update and offline render
/// through them. The state is the rooms' own; this type keeps none but the rooms and whether
/// the engine was shut down. It is reached only through ``SoundEngine``'s lock.
///
/// The rooms: ``DeviceHost`` (the device and the context), ``AudioSession`` and
/// ``SessionController`` (interruptions, device loss, switching, snapshots), ``VoiceTable``,
/// ``VoicePool`` and ``VoicePlayer`` (voices), ``ALRenderer`` (sources and effects),
/// ``SoundBank`` (sounds), ``StreamSet`` (streamed tracks), ``GroupMixer`` (groups and reverb
/// zones), ``SpatialWorld`` (listener and distance), ``UpdateClock``, ``ALGate`` and
/// ``EventQueue``.
///
/// `@unchecked Sendable`: an EngineCore is only ever reached through ``SoundEngine``'s mutex,
/// which serialises every access; region checking cannot see through the closures that take it.
final class EngineCore: @unchecked Sendable {
    private let configuration: SoundEngine.Configuration
    private let host: DeviceHost
    private let gate: ALGate
    private let queue = EventQueue()
    private let clock: UpdateClock
    private let bank = SoundBank()
    private let mixer = GroupMixer()
    private let spatial: SpatialWorld
    private let table: VoiceTable
    private let renderer: ALRenderer
    private let player: VoicePlayer
    private let tracks: StreamSet
    private let controller: SessionController
    private let worker: DecodeWorker
    private let snapshots: SnapshotWriter?
    @exclusivity(unchecked) private var isShutDown = false

    /// - Parameter events: where the snapshot writer reports a failed write, from its own thread.
    init(configuration: SoundEngine.Configuration, engineID: Int, logger: Logger, events: EventSinks) throws {
        self.configuration = configuration
        let session = AudioSession(policy: configuration.resumePolicy, logger: logger)
        host = try DeviceHost(configuration: configuration, logger: logger)
        gate = ALGate(host: host, session: session, logger: logger)
        clock = UpdateClock(isOffline: configuration.output.isOffline)
        spatial = SpatialWorld(configuration: configuration)
        table = VoiceTable(engineID: engineID)
        renderer = ALRenderer(sounds: bank, mixer: mixer)
        // Started once nothing before it can throw; the one later failure stops it.
        worker = DecodeWorker(logger: logger)
        player = VoicePlayer(configuration: configuration, table: table, renderer: renderer, mixer: mixer, sounds: bank,
                             world: spatial, clock: clock, host: host, session: session, gate: gate, events: queue,
                             worker: worker, logger: logger)
        tracks = StreamSet(configuration: configuration, logger: logger, mixer: mixer, host: host, session: session,
                           gate: gate, events: queue, worker: worker)
        snapshots = configuration.statePath.map { SnapshotWriter(path: $0, logger: logger, events: events) }
        controller = SessionController(configuration: configuration, logger: logger, session: session, host: host,
                                       gate: gate, events: queue, table: table, voices: player, renderer: renderer,
                                       streams: tracks, sounds: bank, mixer: mixer, world: spatial, snapshots: snapshots)
        if let startSeconds = host.outputStartSeconds {
            queue.emit(DeviceEvent.outputStarted(afterSeconds: startSeconds))
        }
        do {
            _ = try host.withContext { _ in try spatial.apply() }
        } catch {
            host.closeDevice(isReachable: true)
            worker.stop()
            throw error
        }
    }

    // MARK: The rooms, for the facade

    var device: DeviceHost { host }
    var events: EventQueue { queue }
    var sounds: SoundBank { bank }
    var groups: GroupMixer { mixer }
    var world: SpatialWorld { spatial }
    var voices: VoicePlayer { player }
    var streams: StreamSet { tracks }
    var session: SessionController { controller }
    /// The snapshot writer (nil without a state path): the facade waits on it outside the lock.
    var snapshotWriter: SnapshotWriter? { snapshots }
    /// Runs AL work when the session is active and a device is open.
    var al: ALGate { gate }
    /// The voice table, for statistics.
    var voiceTable: VoiceTable { table }
    /// The renderer, for statistics.
    var alRenderer: ALRenderer { renderer }
    /// The stream decode thread: ``SoundEngine/shutdown()`` waits for it outside the lock.
    var decodeWorker: DecodeWorker { worker }

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
    /// engine lock released and hands it to ``SessionController/finishReopen(_:now:)``.
    /// `now` is read only when something needs the wall clock: a device whose output has not
    /// been seen running yet, or a reopen step.
    @discardableResult
    func update(elapsedSeconds: Double, now: @autoclosure () -> ContinuousClock.Instant,
                waitsForDecode: Bool = false) -> DevicePreparation? {
        guard !isShutDown else { return nil }
        if host.isOpen, controller.isActive {
            // Read on every update: on a lost device OpenAL reports every source stopped at offset
            // 0, and the steps below would act on that (one-shots ended, positions lost).
            if !host.isLoopback && !host.isConnected {
                controller.loseDevice(isReachable: false)
                return nil
            }
            if let startSeconds = host.pollOutputStart(now: now()) {
                queue.emit(DeviceEvent.outputStarted(afterSeconds: startSeconds))
            }
            clock.countUpdate()
            mixer.advance(bySeconds: elapsedSeconds, playingCounts: player.playingCountsByGroup)
            for group in mixer.takePausesDue() { setGroupPaused(true, index: group) }
            gate.run("update") { device in
                // One batch: every property set here reaches the mixer at once.
                gate.attempt("update: deferred updates") {
                    try device.deferringUpdates {
                        gate.attempt("update: voices") { try player.service(elapsedSeconds: elapsedSeconds, on: device, waitsForDecode: waitsForDecode) }
                        sendChanges(on: device)
                        if mixer.isDirty {
                            gate.attempt("update: group gains") { try applyGroupGains() }
                        }
                        gate.attempt("update: streams") {
                            try tracks.service(elapsedSeconds: elapsedSeconds, on: device, waitsForDecode: waitsForDecode)
                        }
                    }
                }
            }
            mixer.clearDirty()
        } else if !host.isOpen && !configuration.output.isOffline {
            // Offline, the device comes back only when asked (reconnectDevice): a render must
            // not depend on the wall clock.
            return controller.reopenStep(now: now())
        }
        return nil
    }

    /// A real-time update: the clock gives the time since the last. Returns the reopen attempt
    /// to run off the lock, if one is due.
    func updateNow() -> DevicePreparation? {
        update(elapsedSeconds: clock.advanceRealTime(), now: .now)
    }

    /// Sends what the setters changed since the last update (the voices' parameters after their
    /// fades moved on, the listener and the world), in the update's deferred block.
    private func sendChanges(on device: ALDevice) {
        gate.attempt("update: voice parameters") { try player.sendChanges(on: device) }
        gate.attempt("update: listener and world") { try spatial.applyChanges() }
    }

    /// Pauses or resumes a group's voices and streams where they are (every group's, for
    /// master); a voice paused by itself stays paused when its group resumes.
    func setGroupPaused(_ paused: Bool, index: Int) {
        mixer.setPaused(paused, of: index)
        gate.run("setGroupPaused") { device in
            try player.setGroupPaused(paused, group: index)
            try tracks.setGroupPaused(paused, group: index)
            if !paused { try player.assignSources(on: device) }
        }
    }

    /// Sends every real voice's and stream's gain after a group gain changed.
    func applyGroupGains() throws {
        try player.applyGroupGains()
        try tracks.applyGroupGains()
    }

    /// Renders up to `frameCount` frames offline into `output`, no further than the next update
    /// after the one due now (run first, when due), and returns how many. While the session is
    /// interrupted or the device is lost, output is stopped: the frames are zeros. Each update
    /// waits for the decode worker to fill the streams' free buffers, so what plays never
    /// depends on how fast the worker ran; the caller decodes what it can between stretches,
    /// outside the lock (``DecodeWorker/decodeOnCallingThread()``), so it rarely waits.
    func renderStretch(into output: UnsafeMutablePointer<Float>, frameCount: Int, channelCount: Int) -> Int {
        clock.renderStretch(frameCount: frameCount, intervalFrames: host.updateIntervalFrames, sampleRate: host.sampleRate,
                            update: { elapsed in _ = update(elapsedSeconds: elapsed, now: .now, waitsForDecode: true) },
                            mix: { stretchFrames in
            if host.isOpen, controller.isActive {
                // Changes made since the last update (a render that starts between updates)
                // are sent before the mix, as the update would have.
                if player.hasChanges || spatial.hasChanges {
                    gate.run("render") { device in try device.deferringUpdates { sendChanges(on: device) } }
                }
                host.render(into: output, frameCount: stretchFrames)
            } else {
                output.update(repeating: 0, count: stretchFrames * channelCount)
            }
        })
    }

    // MARK: Shutdown

    /// Saves the snapshot when configured, stops everything, frees every AL name and closes the
    /// device, and asks the decode worker to end (the caller waits for it outside the lock).
    /// Idempotent.
    func shutDown() {
        guard !isShutDown else { return }
        controller.saveSnapshotIfConfigured()
        controller.forgetDevice(isReachable: host.isConnected)
        table.removeAll()
        tracks.removeAll()
        worker.requestStop()
        isShutDown = true
    }
}
