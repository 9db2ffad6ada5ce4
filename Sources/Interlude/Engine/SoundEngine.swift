import Logging
import Synchronization

/// Interlude's engine: one OpenAL device and context, positional voices, streamed tracks, and an
/// audio session that keeps all of it right through interruptions and device loss.
///
/// Every method is synchronous and may be called from any thread: each takes the engine's lock.
/// On a real device a driver thread updates once per mix (or every 10 ms, ``Configuration/updateTiming``); offline, ``render(frameCount:)``
/// drives everything and is deterministic.
///
/// Setters (a voice's position, velocity, gain, pitch and other parameters, the listener, the
/// distance model, doppler) change the engine's copy and return: the next update sends what
/// changed to OpenAL in one batch. On a real device the mixer hears a change in the next mix when
/// it was made before the driver's update for that mix (``Configuration/updateTiming``), in the
/// one after at the latest, or at the game's own ``update()`` call; offline, before the next
/// rendered frame.
///
/// ```swift
/// let engine = try SoundEngine(configuration: .init(output: .systemDefault))
/// let beep = try engine.loadSound(path: "assets/sfx/beep.wav")
/// let voice = try engine.play(beep, parameters: .init(position: Vector3(4, 0, 0), isLooping: true))
/// try engine.playMusic(path: "assets/music/theme.ogg")
/// ```
public final class SoundEngine: Sendable {
    private let lock: EngineLock
    private let sinks: EventSinks
    private let driver: AnnotatedMutex<DriverThread?>
    /// Reopens, reconnects, switches, default-sink moves and restarts, each opening its device
    /// off the lock: ``shutdown()`` refuses new ones and waits for those under way, so no OpenAL
    /// call is left running when it returns and the process may exit.
    let outputChanges: OutputChanges
    /// How long ``shutdown()`` waits for a device open under way (one stuck on a frozen server
    /// is left to finish by itself).
    static let shutdownOpenWaitSeconds = 5.0
    private let logindWatcher = AnnotatedMutex<LogindWatcher?>(nil)
    /// The engine's listener on OpenAL Soft's system events (1.24 and later), nil without one.
    private let systemEventLog = AnnotatedMutex<SystemEventLog?>(nil)
    /// This engine's configuration.
    public let configuration: Configuration
    let engineID: Int
    /// Streamed tracks' loudness, measured for loudness targets.
    private let trackLoudnessCache = TrackLoudnessCache()
    /// Writes the snapshots off the lock (nil without ``Configuration/statePath``).
    private let snapshotWriter: SnapshotWriter?
    /// The core's decode worker, stopped at shutdown outside the lock.
    private let decodeWorker: DecodeWorker
    private let loader: SoundLoader
    private let renderer: OfflineRenderer

    private static let nextID = Atomic<Int>(1)

    /// Opens the configured device and starts the driver thread (on a real device).
    /// Throws `.deviceUnavailable` when no device opens, `.invalidArgument` for a bad configuration.
    public init(configuration: Configuration = Configuration()) throws {
        try configuration.validate()
        var logger = Logger(label: configuration.loggerLabel)
        logger[metadataKey: "output"] = "\(configuration.output)"
        let engineID = Self.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        self.engineID = engineID
        self.configuration = configuration
        let sinks = EventSinks()
        self.sinks = sinks
        let core = try EngineCore(configuration: configuration, engineID: engineID, logger: logger, events: sinks)
        self.snapshotWriter = core.snapshotWriter
        self.decodeWorker = core.decodeWorker
        let lock = EngineLock(core, sinks: sinks)
        self.lock = lock
        outputChanges = OutputChanges(lock: lock)
        loader = SoundLoader(lock: lock, engineID: engineID)
        renderer = OfflineRenderer(lock: lock, decodeWorker: core.decodeWorker, isOffline: configuration.output.isOffline)
        self.driver = AnnotatedMutex(nil)
        if !configuration.output.isOffline && configuration.runsDriverThread {
            let intervalSeconds = configuration.updateIntervalSeconds
            let thread = try DriverThread { [weak self] in self?.driverTick() ?? intervalSeconds }
            lock.attach(driver: thread)
            driver.withLock { $0 = thread }
        }
        if configuration.handlesJobControl {
            JobControlSource.shared.attach(self)
        }
        let logind = LogindWatcher.start(for: self, settings: configuration.logind.resolved(for: configuration.output), logger: logger)
        logindWatcher.withLock { $0 = logind }
        AudioServerSources.attach(self, settings: configuration.audioServer, output: configuration.output, logger: logger)
        if !configuration.output.isOffline, configuration.output != .null,
           let (release, canReopen) = readCore({ core in core.device.openDevice.map { ($0.release, $0.canReopen) } }),
           let log = SystemEventLog.start(release: release, canReopen: canReopen, logger: logger) {
            systemEventLog.withLock { $0 = log }
        }
        LiveEngines.add(self)
    }

    /// Whether the calling thread is this engine's driver thread.
    var isOnDriverThread: Bool {
        driver.withLock { $0 }?.isCurrentThread ?? false
    }

    deinit {
        shutdown()
    }

    /// Stops the driver, saves the snapshot (when ``Configuration/statePath`` is set), frees every
    /// AL object and closes the device. A device still opening off the lock (a reconnect, a
    /// switch, a reopen after a loss) is waited for first, up to 5 s, until the engine keeps it
    /// or it is closed, and none opens once shutdown has begun, so that no OpenAL call is left
    /// running when it returns and the process may exit. Idempotent; later calls throw
    /// `.shutDown`. Any thread. An engine dropped without it shuts down in its deinit, and one
    /// still held when the program exits is shut down at exit, so its device is closed either way.
    public func shutdown() {
        let thread = driver.withLock { driver -> DriverThread? in
            defer { driver = nil }
            return driver
        }
        thread?.stop()
        // Before the core shuts down: no device opens off the lock from now on, and one opening
        // now is handed to the core, which closes it with the rest, or closed by its own thread
        // before the wait ends.
        outputChanges.closeAndWait(timeoutSeconds: Self.shutdownOpenWaitSeconds)
        JobControlSource.shared.detach(self)
        logindWatcher.withLock { watcher -> LogindWatcher? in defer { watcher = nil }; return watcher }?.stop()
        AudioServerSources.detach(self)
        systemEventLog.withLock { log -> SystemEventLog? in defer { log = nil }; return log }?.stop()
        lock.shutDown()
        // Outside the lock: a read under way may take a while to return.
        decodeWorker.stop()
        waitForSnapshots()
        sinks.finish()
        LiveEngines.remove(engineID)
    }

    /// Waits, outside the engine lock, until every snapshot handed to the writer so far is on
    /// disk (or failed): the calls that save one return only then, while other threads' calls
    /// go on meanwhile.
    func waitForSnapshots() {
        guard let snapshotWriter else { return }
        snapshotWriter.waitUntilWritten(snapshotWriter.lastSubmitted)
    }

    /// Where logind's sources are (connecting, watching, unavailable), or nil when both are off.
    var logindStatus: LogindWatcher.Status? {
        logindWatcher.withLock { $0 }?.status
    }

    /// Runs `body` on the core under the lock, then delivers the events it raised.
    /// - Parameter call: names the call in the `.shutDown` error; built only then.
    func withCore<Result>(_ call: @autoclosure () -> String, _ body: (EngineCore) throws -> Result) throws -> Result {
        try lock.withCore(call(), body)
    }

    /// Like ``withCore(_:_:)`` for a change the game may make while the session is interrupted:
    /// `body` makes it, and while the session is interrupted it is reported as `deferred`
    /// (``SessionEvent/commandDeferred(_:)``).
    func withCore(_ call: @autoclosure () -> String, reporting deferred: DeferredCommand,
                  _ body: (EngineCore) throws -> Void) throws {
        try lock.withCore(call()) { core in
            try body(core)
            core.noteDeferred(deferred)
        }
    }

    /// Checks a gain, pause, resume or stop's arguments, then carries it out on `target` under
    /// the lock: voices, groups and tracks take the one control path.
    func control(_ command: ControlCommand, _ target: ControlTarget) throws {
        let call = command.call(on: target)
        try command.validate(in: call)
        try withCore(call) { try $0.apply(command, to: target, call: call) }
    }

    /// Like ``withCore(_:_:)`` for calls that cannot fail: after shutdown they do nothing.
    func withLiveCore(_ body: (EngineCore) -> Void) {
        lock.withLiveCore(body)
    }

    /// Throws `.shutDown` naming `call` after shutdown.
    func ensureAlive(_ call: @autoclosure () -> String) throws {
        try lock.ensureAlive(call())
    }

    /// Reads from the core under the lock (raising no events).
    func readCore<Result>(_ body: (EngineCore) -> Result) -> Result {
        lock.readCore(body)
    }

    /// Adds an event stream; returns its id.
    func addEventStream(_ continuation: AsyncStream<EngineEvent>.Continuation) -> Int {
        sinks.add(continuation)
    }

    /// Removes an event stream that ended.
    func removeEventStream(_ id: Int) {
        sinks.remove(id)
    }

    /// Replaces the event callback.
    func replaceEventHandler(_ handler: (@Sendable (EngineEvent) -> Void)?) {
        sinks.setHandler(handler)
    }

    /// Delivers an event raised outside the engine lock by a module of this package that works
    /// for the engine on a thread of its own (the cue bank watcher of InterludeScene).
    package func deliver(_ event: EngineEvent) {
        sinks.deliver([event])
    }

    // MARK: Update and rendering

    /// One update: stream refills, fades, one-shot completions, device checks and reopening.
    /// The driver thread calls it every 10 ms by default; a game may also call it from its frame loop.
    /// Any thread.
    public func update() {
        var attempt: DevicePreparation?
        withLiveCore { attempt = $0.updateNow() }
        if let attempt { outputChanges.reopenAfterLoss(attempt) }
    }

    /// Renders the next `frameCount` frames of an offline engine as interleaved float samples,
    /// updating every ``Configuration/updateIntervalSeconds`` of rendered audio. Deterministic:
    /// the same calls give the same samples. Throws `.invalidArgument` on a real device.
    public func render(frameCount: Int) throws -> [Float] {
        var samples: [Float] = []
        try render(frameCount: frameCount, into: &samples)
        return samples
    }

    /// Renders the next `frameCount` frames like ``render(frameCount:)``, into `samples`, which
    /// then holds exactly those frames (interleaved, the output's channel count each). The array
    /// is reused: once it has that size, a render allocates nothing and writes each sample once,
    /// for a game or tool rendering chunk after chunk. Throws `.invalidArgument` on a real device
    /// or for a negative `frameCount`, leaving `samples` as it was.
    ///
    /// Renders from several threads take turns: each is one contiguous stretch of the timeline.
    /// Between update intervals a render releases the engine lock, so another thread's call made
    /// during a long render takes effect at the next interval inside it; the events the render
    /// raised are delivered when it returns.
    public func render(frameCount: Int, into samples: inout [Float]) throws {
        try renderer.render(frameCount: frameCount, into: &samples)
    }

    // MARK: Sounds

    /// Decodes a sound file (WAV, Ogg Vorbis, Ogg Opus, FLAC or MP3, recognised by content) into a
    /// ``Sound`` and uploads it, on the calling thread. A file already loaded (by any spelling of
    /// its path) is not decoded again: the same ``Sound`` comes back until it is unloaded. Throws
    /// `.fileNotFound`, `.corruptData` or `.unsupportedFormat` naming the file. Any thread; the
    /// engine's lock is taken only for moments: to hand each decoded chunk to OpenAL's buffer
    /// and to register the sound.
    ///
    /// The samples go straight into OpenAL's buffer as they are decoded, and the engine keeps
    /// no other copy: a new device (after a device loss or a switch) decodes the file again, off
    /// the engine's lock. So the file must stay where it is, unchanged, while the sound is
    /// loaded; if it changed or vanished by then, the sound is lost
    /// (``DeviceEvent/soundLost(name:reason:)``) rather than played wrong.
    public func loadSound(path: String) throws -> Sound {
        try loader.load(path: path)
    }

    /// The loudness of the track at `path` for a loudness target: cached, else measured on the
    /// calling thread (never under the engine lock).
    func trackLoudness(ofPath path: String) throws -> Loudness {
        try trackLoudnessCache.loudness(ofPath: path)
    }

    /// How many tracks this engine has measured for loudness targets.
    package var trackLoudnessMeasurementCount: Int { trackLoudnessCache.measurementCount }

    /// Like the synchronous `loadSound(path:)`, but the file is read and decoded on a background
    /// thread, so the caller's thread (and the engine's lock) never waits on the disk. Loads of
    /// several files run in parallel; loads of the same file that overlap share one decode and
    /// return the same ``Sound``.
    ///
    /// ```swift
    /// async let music = engine.loadSound(path: "sfx/step.ogg")
    /// async let door = engine.loadSound(path: "sfx/door.flac")
    /// let sounds = try await [music, door]
    /// ```
    public func loadSound(path: String) async throws -> Sound {
        try await loader.load(path: path)
    }

    /// Decodes a game's own decoder (a procedural source, an archive reader, a format the engine
    /// does not read) from its current position to its end into a ``Sound`` and uploads it, on
    /// the calling thread. The engine takes the decoder over for the call and lets it go when it
    /// returns: it never reads it again. `decoder.path` names the sound in errors and logs; such
    /// a sound is not cached (each call gives a new ``Sound``). Its ``AudioDecoder/loopRegion``
    /// becomes the sound's, and a decoder whose ``AudioDecoder/integerBitsPerSample`` is 16 or
    /// fewer is kept as 16-bit.
    ///
    /// The engine keeps the decoded samples in memory, as for ``makeSound(name:format:samples:)``,
    /// so that a new device (after a device loss or a switch) gets the sound again: it does not
    /// read a game's decoder again, which may not rewind and belongs to the game.
    ///
    /// It reads up to the decoder's ``AudioDecoder/frameCount`` frames (an endless procedural
    /// source gives exactly that many), or fewer if the decoder ends first.
    ///
    /// Throws `.unsupportedFormat` for other than 1 or 2 channels at 1000...384000 Hz,
    /// `.invalidArgument` for a frameCount outside 1...2^27 or a decoder that gives no frames,
    /// and whatever the decoder throws. Any thread;
    /// the engine's lock is taken only to register the decoded sound.
    public func loadSound(decoder: sending any AudioDecoder) throws -> Sound {
        try loader.load(decoder: decoder)
    }

    /// Like the synchronous `loadSound(decoder:)`, but the decoder is read on a background
    /// thread, so neither the caller's thread nor the engine's lock waits for it.
    public func loadSound(decoder: sending any AudioDecoder) async throws -> Sound {
        try await loader.load(decoder: decoder)
    }

    /// Makes a ``Sound`` from interleaved float samples (generated audio, a game's own
    /// formats). Any thread.
    public func makeSound(name: String, format: AudioFormat, samples: [Float]) throws -> Sound {
        try loader.make(name: name, format: format, samples: samples)
    }

    /// Stops the sound's voices and frees its buffers; a later load of its file decodes it again.
    /// Any thread.
    public func unloadSound(_ sound: Sound) throws {
        try loader.unload(sound)
    }

    // MARK: Statistics

    /// What the engine holds right now. Any thread.
    public var statistics: EngineStatistics {
        readCore { core in
            EngineStatistics(
                voiceCount: core.voiceTable.liveVoiceCount,
                realVoiceCount: core.alRenderer.realVoiceCount,
                alSourceCount: core.device.liveSourceCount,
                alBufferCount: core.device.liveBufferCount,
                alEffectObjectCount: core.device.liveEffectObjectCount,
                loadedSoundCount: core.sounds.count,
                deviceName: core.device.deviceName,
                sampleRate: core.device.sampleRate,
                isHRTFEnabled: core.device.isHRTFEnabled,
                internalErrorCount: core.al.internalErrorCount,
                deviceReopenAttemptCount: core.device.reopenAttemptCount,
                isDeviceReopening: core.device.isReopenInFlight,
                outputPeriodMilliseconds: core.device.outputPeriodMilliseconds,
                isOutputRunning: core.device.isOutputRunning,
                outputStartSeconds: core.device.outputStartSeconds,
                isOutputPausedWhileIdle: core.device.isOutputPausedForIdle)
        }
    }
}
