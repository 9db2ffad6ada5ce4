import Foundation
import Logging
import Synchronization

/// Interlude's engine: one OpenAL device and context, positional voices, streamed tracks, and an
/// audio session that keeps all of it right through interruptions and device loss.
///
/// Every method is synchronous and may be called from any thread: each takes the engine's lock.
/// On a real device a driver thread updates about every 10 ms; offline, ``render(frameCount:)``
/// drives everything and is deterministic.
///
/// Setters (a voice's position, velocity, gain, pitch and other parameters, the listener, the
/// distance model, doppler) change the engine's copy and return: the next update sends what
/// changed to OpenAL in one batch. On a real device the mixer hears a change within one update
/// interval (``Configuration/updateIntervalSeconds``, 10 ms by default), or at the game's own
/// ``update()`` call; offline, before the next rendered frame.
///
/// ```swift
/// let engine = try SoundEngine(configuration: .init(output: .systemDefault))
/// let beep = try engine.loadSound(path: "assets/sfx/beep.wav")
/// let voice = try engine.play(beep, parameters: .init(position: Vector3(4, 0, 0), isLooping: true))
/// try engine.playMusic(path: "assets/music/theme.ogg")
/// ```
public final class SoundEngine: Sendable {
    private let core: AnnotatedMutex<EngineCore>
    private let events: EventSinks
    private let driver: AnnotatedMutex<DriverThread?>
    private let logindWatcher = AnnotatedMutex<LogindWatcher?>(nil)
    /// This engine's configuration.
    public let configuration: Configuration
    private let engineID: Int
    /// Loaded files by canonical path: the same file loads once.
    private let soundCache = SoundCache()
    /// Writes the snapshots off the lock (nil without ``Configuration/statePath``).
    private let snapshotWriter: SnapshotWriter?

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
        let events = EventSinks()
        self.events = events
        let core = try EngineCore(configuration: configuration, engineID: engineID, logger: logger, events: events)
        self.snapshotWriter = core.snapshotWriter
        self.core = AnnotatedMutex(core)
        self.driver = AnnotatedMutex(nil)
        if !configuration.output.isOffline && configuration.runsDriverThread {
            let thread = DriverThread(intervalSeconds: configuration.updateIntervalSeconds) { [weak self] in
                self?.update()
            }
            driver.withLock { $0 = thread }
        }
        if configuration.handlesJobControl {
            JobControlSource.shared.attach(self)
        }
        let logind = LogindWatcher.start(for: self, settings: configuration.logind.resolved(for: configuration.output), logger: logger)
        logindWatcher.withLock { $0 = logind }
        AudioServerSources.attach(self, logger: logger)
    }

    deinit {
        shutdown()
    }

    /// Stops the driver, saves the snapshot (when ``Configuration/statePath`` is set), frees every
    /// AL object and closes the device. Idempotent; later calls throw `.shutDown`. Any thread.
    public func shutdown() {
        let thread = driver.withLock { driver -> DriverThread? in
            defer { driver = nil }
            return driver
        }
        thread?.stop()
        JobControlSource.shared.detach(self)
        logindWatcher.withLock { watcher -> LogindWatcher? in defer { watcher = nil }; return watcher }?.stop()
        AudioServerSources.detach(self)
        let decodeWorker = core.withLock { core in
            core.shutDown()
            return core.decodeWorker
        }
        // Outside the lock: a read under way may take a while to return.
        decodeWorker.stop()
        waitForSnapshots()
        events.finish()
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
        let (result, raised) = try core.withLock { core throws -> (Result, [SessionEvent]) in
            try core.checkAlive(call())
            // A call that throws drops the events it raised with it.
            defer { core.events.discard() }
            return (try body(core), core.events.take())
        }
        deliver(raised)
        return result
    }

    /// Like ``withCore(_:_:)`` for calls that cannot fail: after shutdown they do nothing.
    func withLiveCore(_ body: (EngineCore) -> Void) {
        let raised = core.withLock { core -> [SessionEvent] in
            guard !core.hasShutDown else { return [] }
            body(core)
            return core.events.take()
        }
        deliver(raised)
    }

    /// Throws `.shutDown` naming `call` after shutdown.
    func ensureAlive(_ call: @autoclosure () -> String) throws {
        try core.withLock { try $0.checkAlive(call()) }
    }

    /// Reads from the core under the lock (raising no events).
    func readCore<Result>(_ body: (EngineCore) -> Result) -> Result {
        core.withLock { body($0) }
    }

    private func deliver(_ raised: [SessionEvent]) {
        events.deliver(raised)
    }

    /// Adds an event stream; returns its id.
    func addEventStream(_ continuation: AsyncStream<SessionEvent>.Continuation) -> Int {
        events.add(continuation)
    }

    /// Removes an event stream that ended.
    func removeEventStream(_ id: Int) {
        events.remove(id)
    }

    /// Replaces the event callback.
    func replaceEventHandler(_ handler: (@Sendable (SessionEvent) -> Void)?) {
        events.setHandler(handler)
    }

    // MARK: Update and rendering

    /// One update: stream refills, fades, one-shot completions, device checks and reopening.
    /// The driver thread calls it about every 10 ms; a game may also call it from its frame loop.
    /// Any thread.
    public func update() {
        var attempt: DevicePreparation?
        withLiveCore { attempt = $0.updateNow() }
        if let attempt { runReopenAttempt(attempt) }
    }

    /// Runs a reopen attempt after a device loss on the calling thread with the engine lock
    /// released (opening the device, which on a stalled audio server blocks, and uploading every
    /// sound to it), then hands it to the session under the lock; a stale attempt (the engine
    /// shut down, switched or was reopened meanwhile) is closed after the lock is released.
    /// - Parameter waitSeconds: how long to wait, still off the lock, for the new device's
    ///   output to run before handing it over (0: not at all; the update installs it once it runs).
    func runReopenAttempt(_ attempt: DevicePreparation, waitSeconds: Double = 0) {
        if attempt.run(), waitSeconds > 0 {
            _ = attempt.opened?.wait(timeoutSeconds: waitSeconds)
        }
        var unused: DevicePreparation? = attempt
        withLiveCore { unused = $0.session.finishReopen(attempt, now: .now) }
        unused?.discard()
    }

    /// Renders the next `frameCount` frames of an offline engine as interleaved float samples,
    /// updating every ``Configuration/updateIntervalSeconds`` of rendered audio. Deterministic:
    /// the same calls give the same samples. Throws `.invalidArgument` on a real device.
    public func render(frameCount: Int) throws -> [Float] {
        guard configuration.output.isOffline else {
            throw InterludeError(.invalidArgument, "render(frameCount:): the engine is not offline; use OutputDevice.offline")
        }
        guard frameCount >= 0 else {
            throw InterludeError(.invalidArgument, "render(frameCount:): frameCount must be >= 0, got \(frameCount)")
        }
        return try withCore("render(frameCount:)") { core in
            // The current format: switchDevice(to:) may have moved to another offline format.
            guard case .offline(_, let channelCount) = core.device.currentOutput else { return [] }
            var samples = [Float](repeating: 0, count: frameCount * channelCount)
            samples.withUnsafeMutableBufferPointer { output in
                core.render(into: output, frameCount: frameCount, channelCount: channelCount)
            }
            return samples
        }
    }

    // MARK: Sounds

    private static let nextSoundID = Atomic<Int>(1)

    /// Decodes a sound file (WAV, Ogg Vorbis, Ogg Opus, FLAC or MP3, recognised by content) into a
    /// ``Sound`` and uploads it, on the calling thread. A file already loaded (by any spelling of
    /// its path) is not decoded again: the same ``Sound`` comes back until it is unloaded. Throws
    /// `.fileNotFound`, `.corruptData` or `.unsupportedFormat` naming the file. Any thread; the
    /// engine's lock is taken only to register the decoded sound.
    public func loadSound(path: String) throws -> Sound {
        let canonicalPath = SoundCache.canonicalPath(path)
        if let canonicalPath, let cached = soundCache.sound(at: canonicalPath) { return cached }
        let sound = try decodeSound(path: path)
        guard let canonicalPath else {
            try register(sound)
            return sound
        }
        let kept = soundCache.keep(sound, at: canonicalPath)
        guard kept === sound else { return kept }
        do {
            try register(sound)
        } catch {
            soundCache.remove(sound)
            throw error
        }
        return sound
    }

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
        guard let canonicalPath = SoundCache.canonicalPath(path) else {
            // Not a file that resolves: the decoder says why, off the caller's thread all the same.
            return try await Self.offCallerThread { [self] in try decodeSound(path: path) }
        }
        return try await soundCache.sound(at: canonicalPath) { [self] in
            let sound = try await Self.offCallerThread { [self] in try decodeSound(path: path) }
            try register(sound)
            return sound
        }
    }

    /// Makes a ``Sound`` from interleaved float samples (generated audio, a game's own
    /// formats). Any thread.
    public func makeSound(name: String, format: AudioFormat, samples: [Float]) throws -> Sound {
        let sound = try newSound(name: name, format: format, samples: .float32(samples), loopRegion: nil)
        try register(sound)
        return sound
    }

    /// Decodes `path` into a sound not yet registered.
    private func decodeSound(path: String) throws -> Sound {
        let decoded = try DecoderFactory.decodeSound(path: path)
        return try newSound(name: path, format: decoded.format, samples: decoded.samples, loopRegion: decoded.loopRegion)
    }

    private func newSound(name: String, format: AudioFormat, samples: SoundSamples, loopRegion: Range<Int>?) throws -> Sound {
        guard (1...2).contains(format.channelCount), (1_000...384_000).contains(format.sampleRate) else {
            throw InterludeError(.unsupportedFormat, "makeSound(\(name)): \(format.channelCount) channels at \(format.sampleRate) Hz is not supported (1 or 2 channels, 1000...384000 Hz)")
        }
        guard samples.count > 0, samples.count % format.channelCount == 0 else {
            throw InterludeError(.invalidArgument, "makeSound(\(name)): \(samples.count) samples is not a whole, non-zero number of frames")
        }
        return Sound(name: name, format: format, samples: samples, loopRegion: loopRegion,
                     id: Self.nextSoundID.wrappingAdd(1, ordering: .relaxed).oldValue, engineID: engineID)
    }

    /// Registers a decoded sound with the engine and uploads its buffers (when AL may be called).
    private func register(_ sound: Sound) throws {
        try withCore("loadSound(\(sound.name))") { core in
            core.sounds.register(sound)
            core.al.run("loadSound(\(sound.name))") { device in _ = try core.sounds.buffers(for: sound, on: device) }
        }
    }

    /// Runs `work` on a background thread (not the caller's, not Swift's cooperative pool, which
    /// file reads must not block) and returns its result.
    private static func offCallerThread<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Swift.Result { try work() })
            }
        }
    }

    /// Stops the sound's voices and frees its buffers; a later load of its file decodes it again.
    /// Any thread.
    public func unloadSound(_ sound: Sound) throws {
        soundCache.remove(sound)
        try withCore("unloadSound(\(sound.name))") { core in
            core.voices.removeVoices(of: sound)
            core.sounds.unload(sound)
            // While interrupted no AL call may be made: the buffers are deleted when it ends.
            core.al.run("unloadSound(\(sound.name))") { device in try core.voices.releaseDeferred(on: device) }
        }
    }

    // MARK: Voices

    /// Starts a voice of `sound`. While interrupted, a looping voice starts when the session is
    /// active again and a one-shot is dropped (the returned handle is stale). Throws
    /// `.invalidArgument` for out-of-range parameters, `.tooManyVoices` when every voice is in
    /// use, `.foreignObject` for a sound from another engine. Any thread.
    @discardableResult
    public func play(_ sound: Sound, parameters: VoiceParameters = VoiceParameters()) throws -> VoiceHandle {
        try withCore("play(\(sound.name))") { core in
            try core.voices.play(sound, parameters: parameters, isSystemSound: false, command: "play")
        }
    }

    /// Plays a short UI sound, unpositioned, in the "ui" group. Dropped during an interruption,
    /// never resumed after one, usable again as soon as it ends. Any thread.
    public func playSystemSound(_ sound: Sound, gain: Float = 1) throws {
        var parameters = VoiceParameters()
        parameters.gain = gain
        parameters.group = .ui
        _ = try withCore("playSystemSound(\(sound.name))") { core in
            try core.voices.play(sound, parameters: parameters, isSystemSound: true, command: "systemSound")
        }
    }

    /// Stops a voice; its handle goes stale. A stale handle does nothing. Any thread.
    public func stop(_ voice: VoiceHandle) {
        withLiveCore { $0.voices.stop(voice) }
    }

    /// Pauses a voice at its frame. A stale handle does nothing. Any thread.
    public func pause(_ voice: VoiceHandle) {
        withLiveCore { $0.voices.pause(voice) }
    }

    /// Resumes a paused voice at the frame it paused on. A stale handle does nothing. Any thread.
    public func resume(_ voice: VoiceHandle) {
        withLiveCore { $0.voices.resume(voice) }
    }

    /// Sets a voice's gain (>= 0). Any thread.
    public func setGain(_ gain: Float, of voice: VoiceHandle) throws {
        try withCore("setGain") { try $0.voices.update(voice, command: "set", call: "setGain") { $0.gain = gain } }
    }

    /// Sets a voice's pitch (> 0; 2 is an octave up). Any thread.
    public func setPitch(_ pitch: Float, of voice: VoiceHandle) throws {
        try withCore("setPitch") { try $0.voices.update(voice, command: "set", call: "setPitch") { $0.pitch = pitch } }
    }

    /// Moves a positional voice; OpenAL hears it at the next update. Any thread.
    public func setPosition(_ position: Vector3, of voice: VoiceHandle) throws {
        try withCore("setPosition") { try $0.voices.setPosition(position, of: voice) }
    }

    /// Moves many positional voices under one lock: `positions[i]` goes to `voices[i]`. For a game
    /// moving its emitters every frame. Stale handles are skipped. Throws `.invalidArgument`, moving
    /// none, when the counts differ, a position is not finite or a voice is unpositioned. Any thread.
    public func setPositions(_ positions: [Vector3], of voices: [VoiceHandle]) throws {
        try withCore("setPositions") { try $0.voices.setPositions(positions, of: voices) }
    }

    /// Sets a positional voice's velocity, for doppler. Any thread.
    public func setVelocity(_ velocity: Vector3, of voice: VoiceHandle) throws {
        try withCore("setVelocity") { try $0.voices.update(voice, command: "set", call: "setVelocity") { $0.velocity = velocity } }
    }

    /// Changes any of a voice's parameters at once (a positional voice stays positional). Any thread.
    public func setParameters(of voice: VoiceHandle, _ change: (inout VoiceParameters) -> Void) throws {
        try withCore("setParameters") { try $0.voices.update(voice, command: "set", call: "setParameters", change) }
    }

    /// The voice's parameters, or nil for a stale handle. Any thread.
    public func parameters(of voice: VoiceHandle) -> VoiceParameters? {
        readCore { $0.voices.parameters(of: voice) }
    }

    /// How far the voice has played into its sound, in frames (modulo its length when looping),
    /// or nil for a stale handle. Any thread.
    public func positionInFrames(of voice: VoiceHandle) -> Int? {
        readCore { $0.voices.positionInFrames(of: voice) }
    }

    /// True while the voice is playing (or will play when an interruption ends). Any thread.
    public func isPlaying(_ voice: VoiceHandle) -> Bool {
        readCore { $0.voices.isPlaying(voice) }
    }

    /// Fades a voice's gain to `gain` over `durationSeconds` on the update; with `stopsAtEnd`
    /// the voice stops when the fade ends (a fade-out). A stale handle does nothing. Any thread.
    public func fadeVoice(_ voice: VoiceHandle, toGain gain: Float, durationSeconds: Double, curve: FadeCurve = .linear,
                          stopsAtEnd: Bool = false) throws {
        try withCore("fadeVoice") { core in
            try core.voices.fade(voice, gainTo: gain, pitchTo: nil, durationSeconds: durationSeconds, curve: curve,
                          stopsAtEnd: stopsAtEnd, command: "fadeVoice")
        }
    }

    /// Glides a voice's pitch to `pitch` over `durationSeconds` on the update. Any thread.
    public func fadeVoicePitch(_ voice: VoiceHandle, toPitch pitch: Float, durationSeconds: Double, curve: FadeCurve = .linear) throws {
        try withCore("fadeVoicePitch") { core in
            try core.voices.fade(voice, gainTo: nil, pitchTo: pitch, durationSeconds: durationSeconds, curve: curve,
                          stopsAtEnd: false, command: "fadeVoicePitch")
        }
    }

    /// True while the voice holds a real AL source (false while virtual, paused or stale). Any thread.
    public func isReal(_ voice: VoiceHandle) -> Bool {
        readCore { $0.voices.isReal(voice) }
    }

    // MARK: Listener and world

    /// Replaces the listener; OpenAL hears it at the next update. Tracked while interrupted.
    /// Any thread.
    public func setListener(_ listener: Listener) throws {
        try listener.validate(in: "setListener")
        try withCore("setListener") { core in core.world.setListener(listener) }
    }

    /// The listener as the engine keeps it. Any thread.
    public var listener: Listener {
        readCore { $0.world.listener }
    }

    /// Changes the listener in place, as one read-modify-write under the engine's lock: calls
    /// from several threads at once each see the others' changes. Any thread.
    public func updateListener(_ change: (inout Listener) -> Void) throws {
        try withCore("updateListener") { core in
            var changed = core.world.listener
            change(&changed)
            try changed.validate(in: "setListener")
            core.world.setListener(changed)
        }
    }

    /// Sets the distance model; OpenAL hears it at the next update. Any thread.
    public func setDistanceModel(_ model: DistanceModel) throws {
        try withCore("setDistanceModel") { core in core.world.setDistanceModel(model) }
    }

    /// Sets the doppler factor (>= 0) and the speed of sound (> 0, units per second); OpenAL
    /// hears them at the next update. Any thread.
    public func setDoppler(factor: Float, speedOfSoundMetresPerSecond: Float) throws {
        guard factor.isFinite, factor >= 0, speedOfSoundMetresPerSecond.isFinite, speedOfSoundMetresPerSecond > 0 else {
            throw InterludeError(.invalidArgument, "setDoppler: factor must be >= 0 and speed of sound > 0, got \(factor), \(speedOfSoundMetresPerSecond)")
        }
        try withCore("setDoppler") { core in
            core.world.setDoppler(factor: factor, speedOfSoundMetresPerSecond: speedOfSoundMetresPerSecond)
        }
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
                outputStartSeconds: core.device.outputStartSeconds)
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
