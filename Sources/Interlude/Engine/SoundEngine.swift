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
/// ```swift
/// let engine = try SoundEngine(configuration: .init(output: .systemDefault))
/// let beep = try engine.loadSound(path: "assets/sfx/beep.wav")
/// let voice = try engine.play(beep, parameters: .init(position: Vector3(4, 0, 0), isLooping: true))
/// try engine.playMusic(path: "assets/music/theme.ogg")
/// ```
public final class SoundEngine: Sendable {
    let core: AnnotatedMutex<EngineCore>
    let events = AnnotatedMutex(EventSinks())
    private let driver: AnnotatedMutex<DriverThread?>
    /// This engine's configuration.
    public let configuration: Configuration
    let engineID: Int

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
        self.core = AnnotatedMutex(try EngineCore(configuration: configuration, engineID: engineID, logger: logger))
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
        core.withLock { core in
            guard !core.isShutDown else { return }
            core.saveSnapshotIfConfigured()
            core.shutDown()
        }
        events.withLock { $0.finish() }
    }

    /// Runs `body` on the core under the lock, then delivers the events it raised.
    func withCore<Result>(_ call: String, _ body: (EngineCore) throws -> Result) throws -> Result {
        let (result, raised) = try core.withLock { core throws -> (Result, [SessionEvent]) in
            try core.checkAlive(call)
            // A call that throws drops the events it raised with it.
            defer { core.pendingEvents.removeAll() }
            return (try body(core), core.takePendingEvents())
        }
        deliver(raised)
        return result
    }

    /// Like ``withCore(_:_:)`` for calls that cannot fail: after shutdown they do nothing.
    func withLiveCore(_ body: (EngineCore) -> Void) {
        let raised = core.withLock { core -> [SessionEvent] in
            guard !core.isShutDown else { return [] }
            body(core)
            return core.takePendingEvents()
        }
        deliver(raised)
    }

    private func deliver(_ raised: [SessionEvent]) {
        guard !raised.isEmpty else { return }
        let handler = events.withLock { sinks -> (@Sendable (SessionEvent) -> Void)? in
            for event in raised { sinks.yield(event) }
            return sinks.handler
        }
        if let handler { for event in raised { handler(event) } }
    }

    func eventSinksAdd(_ continuation: AsyncStream<SessionEvent>.Continuation) -> Int {
        events.withLock { sinks in
            defer { sinks.nextContinuationID += 1 }
            sinks.continuations[sinks.nextContinuationID] = continuation
            return sinks.nextContinuationID
        }
    }

    func eventSinksRemove(_ id: Int) {
        _ = events.withLock { $0.continuations.removeValue(forKey: id) }
    }

    func eventSinksSetHandler(_ handler: (@Sendable (SessionEvent) -> Void)?) {
        events.withLock { $0.handler = handler }
    }

    // MARK: Update and rendering

    /// One update: stream refills, fades, one-shot completions, device checks and reopening.
    /// The driver thread calls it about every 10 ms; a game may also call it from its frame loop.
    /// Any thread.
    public func update() {
        withLiveCore { core in
            let now = ContinuousClock.now
            let elapsed = core.lastUpdateInstant.map { (now - $0).seconds } ?? 0
            core.lastUpdateInstant = now
            core.update(elapsedSeconds: elapsed, now: now)
        }
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
            guard case .offline(_, let channelCount) = core.currentOutput else { return [] }
            var samples = [Float](repeating: 0, count: frameCount * channelCount)
            samples.withUnsafeMutableBufferPointer { output in
                core.render(into: output, frameCount: frameCount, channelCount: channelCount)
            }
            return samples
        }
    }

    // MARK: Sounds

    private static let nextSoundID = Atomic<Int>(1)

    /// Decodes a WAV or Ogg Vorbis file into a ``Sound`` and uploads it. Throws
    /// `.fileNotFound`, `.corruptData` or `.unsupportedFormat` naming the file. Any thread.
    public func loadSound(path: String) throws -> Sound {
        let decoded = try DecoderFactory.decodeAll(path: path)
        return try makeSound(name: path, format: decoded.format, samples: decoded.samples)
    }

    /// Makes a ``Sound`` from interleaved float samples (generated audio, a game's own
    /// formats). Any thread.
    public func makeSound(name: String, format: AudioFormat, samples: [Float]) throws -> Sound {
        guard (1...2).contains(format.channelCount), (1_000...384_000).contains(format.sampleRate) else {
            throw InterludeError(.unsupportedFormat, "makeSound(\(name)): \(format.channelCount) channels at \(format.sampleRate) Hz is not supported (1 or 2 channels, 1000...384000 Hz)")
        }
        guard !samples.isEmpty, samples.count % format.channelCount == 0 else {
            throw InterludeError(.invalidArgument, "makeSound(\(name)): \(samples.count) samples is not a whole, non-zero number of frames")
        }
        let sound = Sound(name: name, format: format, samples: samples,
                          id: Self.nextSoundID.wrappingAdd(1, ordering: .relaxed).oldValue, engineID: engineID)
        try withCore("loadSound(\(name))") { core in core.register(sound) }
        return sound
    }

    /// Stops the sound's voices and frees its buffers. Any thread.
    public func unloadSound(_ sound: Sound) throws {
        try withCore("unloadSound(\(sound.name))") { core in core.unload(sound) }
    }

    // MARK: Voices

    /// Starts a voice of `sound`. While interrupted, a looping voice starts when the session is
    /// active again and a one-shot is dropped (the returned handle is stale). Throws
    /// `.invalidArgument` for out-of-range parameters, `.tooManyVoices` when every voice is in
    /// use, `.foreignObject` for a sound from another engine. Any thread.
    @discardableResult
    public func play(_ sound: Sound, parameters: VoiceParameters = VoiceParameters()) throws -> VoiceHandle {
        try withCore("play(\(sound.name))") { core in
            try core.play(sound, parameters: parameters, isSystemSound: false, command: "play")
        }
    }

    /// Plays a short UI sound, unpositioned, in the "ui" group. Dropped during an interruption,
    /// never resumed after one, usable again as soon as it ends. Any thread.
    public func playSystemSound(_ sound: Sound, gain: Float = 1) throws {
        var parameters = VoiceParameters()
        parameters.gain = gain
        parameters.group = "ui"
        _ = try withCore("playSystemSound(\(sound.name))") { core in
            try core.play(sound, parameters: parameters, isSystemSound: true, command: "systemSound")
        }
    }

    /// Stops a voice; its handle goes stale. A stale handle does nothing. Any thread.
    public func stop(_ voice: VoiceHandle) {
        withLiveCore { $0.stop(voice) }
    }

    /// Pauses a voice at its frame. A stale handle does nothing. Any thread.
    public func pause(_ voice: VoiceHandle) {
        withLiveCore { $0.pause(voice) }
    }

    /// Resumes a paused voice at the frame it paused on. A stale handle does nothing. Any thread.
    public func resume(_ voice: VoiceHandle) {
        withLiveCore { $0.resume(voice) }
    }

    /// Sets a voice's gain (>= 0). Any thread.
    public func setGain(_ gain: Float, of voice: VoiceHandle) throws {
        try withCore("setGain") { try $0.update(voice, command: "set", call: "setGain") { $0.gain = gain } }
    }

    /// Sets a voice's pitch (> 0; 2 is an octave up). Any thread.
    public func setPitch(_ pitch: Float, of voice: VoiceHandle) throws {
        try withCore("setPitch") { try $0.update(voice, command: "set", call: "setPitch") { $0.pitch = pitch } }
    }

    /// Moves a positional voice. Any thread.
    public func setPosition(_ position: Vector3, of voice: VoiceHandle) throws {
        try withCore("setPosition") { try $0.setPosition(position, of: voice) }
    }

    /// Moves many positional voices under one lock: `positions[i]` goes to `voices[i]`. For a game
    /// moving its emitters every frame. Stale handles are skipped. Throws `.invalidArgument`, moving
    /// none, when the counts differ, a position is not finite or a voice is unpositioned. Any thread.
    public func setPositions(_ positions: [Vector3], of voices: [VoiceHandle]) throws {
        try withCore("setPositions") { try $0.setPositions(positions, of: voices) }
    }

    /// Sets a positional voice's velocity, for doppler. Any thread.
    public func setVelocity(_ velocity: Vector3, of voice: VoiceHandle) throws {
        try withCore("setVelocity") { try $0.update(voice, command: "set", call: "setVelocity") { $0.velocity = velocity } }
    }

    /// Changes any of a voice's parameters at once (a positional voice stays positional). Any thread.
    public func setParameters(of voice: VoiceHandle, _ change: (inout VoiceParameters) -> Void) throws {
        try withCore("setParameters") { try $0.update(voice, command: "set", call: "setParameters", change) }
    }

    /// The voice's parameters, or nil for a stale handle. Any thread.
    public func parameters(of voice: VoiceHandle) -> VoiceParameters? {
        core.withLock { $0.voice(for: voice)?.parameters }
    }

    /// How far the voice has played into its sound, in frames (modulo its length when looping),
    /// or nil for a stale handle. Any thread.
    public func positionInFrames(of voice: VoiceHandle) -> Int? {
        core.withLock { core -> Int? in
            guard let found = core.voice(for: voice) else { return nil }
            if found.state == .playing, let source = found.source {
                core.withAL("positionInFrames(of:)") { _ in found.positionInFrames = try source.sampleOffset() }
            }
            return found.positionInFrames
        }
    }

    /// True while the voice is playing (or will play when an interruption ends). Any thread.
    public func isPlaying(_ voice: VoiceHandle) -> Bool {
        core.withLock { core in
            guard let state = core.voice(for: voice)?.state else { return false }
            return state == .playing || state == .heldBySession || state == .pendingStart
        }
    }

    // MARK: Listener and world

    /// Replaces the listener. Tracked while interrupted. Any thread.
    public func setListener(_ listener: Listener) throws {
        try listener.validate(in: "setListener")
        try withCore("setListener") { core in
            core.listener = listener
            core.withAL("setListener") { _ in try listener.apply() }
        }
    }

    /// The listener as the engine keeps it. Any thread.
    public var listener: Listener {
        core.withLock { $0.listener }
    }

    /// Changes the listener in place. Any thread.
    public func updateListener(_ change: (inout Listener) -> Void) throws {
        var changed = listener
        change(&changed)
        try setListener(changed)
    }

    /// Sets the distance model. Any thread.
    public func setDistanceModel(_ model: DistanceModel) throws {
        try withCore("setDistanceModel") { core in
            core.distanceModel = model
            core.withAL("setDistanceModel") { _ in try ALListener.setDistanceModel(model) }
        }
    }

    /// Sets the doppler factor (>= 0) and the speed of sound (> 0, units per second). Any thread.
    public func setDoppler(factor: Float, speedOfSoundMetresPerSecond: Float) throws {
        guard factor.isFinite, factor >= 0, speedOfSoundMetresPerSecond.isFinite, speedOfSoundMetresPerSecond > 0 else {
            throw InterludeError(.invalidArgument, "setDoppler: factor must be >= 0 and speed of sound > 0, got \(factor), \(speedOfSoundMetresPerSecond)")
        }
        try withCore("setDoppler") { core in
            core.dopplerFactor = factor
            core.speedOfSound = speedOfSoundMetresPerSecond
            core.withAL("setDoppler") { _ in
                try ALListener.setDopplerFactor(factor)
                try ALListener.setSpeedOfSound(speedOfSoundMetresPerSecond)
            }
        }
    }

    // MARK: Statistics

    /// What the engine holds right now. Any thread.
    public var statistics: EngineStatistics {
        core.withLock { core in
            EngineStatistics(
                voiceCount: core.liveVoiceCount,
                realVoiceCount: core.realVoiceCount,
                alSourceCount: core.device?.liveSourceCount ?? 0,
                alBufferCount: core.device?.liveBufferCount ?? 0,
                alEffectObjectCount: core.device?.liveEffectObjectCount ?? 0,
                loadedSoundCount: core.sounds.count,
                deviceName: core.device?.name,
                sampleRate: core.sampleRate,
                isHRTFEnabled: core.device?.isHRTFEnabled ?? false,
                internalErrorCount: core.internalErrorCount)
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
