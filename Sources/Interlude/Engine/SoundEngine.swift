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
    private let sinks: EventSinks
    private let driver: AnnotatedMutex<DriverThread?>
    private let logindWatcher = AnnotatedMutex<LogindWatcher?>(nil)
    /// This engine's configuration.
    public let configuration: Configuration
    let engineID: Int
    /// Loaded files by canonical path: the same file loads once.
    private let soundCache = SoundCache()
    /// Streamed tracks' loudness, measured for loudness targets.
    private let trackLoudnessCache = TrackLoudnessCache()
    /// Writes the snapshots off the lock (nil without ``Configuration/statePath``).
    private let snapshotWriter: SnapshotWriter?
    /// The core's decode worker, which an offline render also drives from its own thread.
    private let decodeWorker: DecodeWorker
    /// Held by an offline render for its whole length: it releases the engine lock between
    /// update intervals (to decode), and another thread's render must not take its place there.
    private let renderTurn = AnnotatedMutex<Void>(())

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
        self.core = AnnotatedMutex(core)
        self.driver = AnnotatedMutex(nil)
        if !configuration.output.isOffline && configuration.runsDriverThread {
            let intervalSeconds = configuration.updateIntervalSeconds
            let thread = DriverThread { [weak self] in self?.driverTick() ?? intervalSeconds }
            self.core.withLock { $0.attach(driver: thread) }
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
        core.withLock { $0.shutDown() }
        // Outside the lock: a read under way may take a while to return.
        decodeWorker.stop()
        waitForSnapshots()
        sinks.finish()
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
        let (result, raised) = try callCore(call(), body)
        deliver(raised)
        return result
    }

    /// Runs `body` on the live core under the lock; returns its result and the events it raised.
    private func callCore<Result>(_ call: @autoclosure () -> String, _ body: (EngineCore) throws -> Result) throws -> (Result, [EngineEvent]) {
        try core.withLock { core throws -> (Result, [EngineEvent]) in
            try core.checkAlive(call())
            // A call that throws drops the events it raised with it.
            defer { core.events.discard() }
            core.beginCall()
            defer { core.endCall() }
            return (try body(core), core.events.take())
        }
    }

    /// Like ``withCore(_:_:)`` for calls that cannot fail: after shutdown they do nothing.
    func withLiveCore(_ body: (EngineCore) -> Void) {
        let raised = core.withLock { core -> [EngineEvent] in
            guard !core.hasShutDown else { return [] }
            core.beginCall()
            body(core)
            core.endCall()
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

    private func deliver(_ raised: [EngineEvent]) {
        sinks.deliver(raised)
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
        guard configuration.output.isOffline else {
            throw InterludeError(.invalidArgument, "render(frameCount:): the engine is not offline; use OutputDevice.offline")
        }
        guard frameCount >= 0 else {
            throw InterludeError(.invalidArgument, "render(frameCount:): frameCount must be >= 0, got \(frameCount)")
        }
        // Events raised during the render reach the game when it ends, after the turn, as
        // they did when a render was one call under the lock.
        var raised: [EngineEvent] = []
        defer { deliver(raised) }
        try renderTurn.withLock { _ in
            try render(frameCount: frameCount, into: &samples, gathering: &raised)
        }
    }

    /// The body of ``render(frameCount:into:)``, in the render's turn: stretch by stretch, each
    /// under the engine lock, decoding off it in between.
    private func render(frameCount: Int, into samples: inout [Float], gathering raised: inout [EngineEvent]) throws {
        guard let output = try withRenderingCore("render(frameCount:)", gathering: &raised, { core -> OutputDevice? in
            // The current format: switchDevice(to:) may have moved to another offline format.
            let output = core.device.currentOutput
            return output.isOffline ? output : nil
        }), case .offline(_, let channelCount) = output else {
            samples.removeAll(keepingCapacity: true)
            return
        }
        let sampleCount = frameCount * channelCount
        if samples.count != sampleCount {
            // Only a new size is filled first (in the capacity it has): the render writes
            // every sample.
            samples.removeAll(keepingCapacity: true)
            samples.append(contentsOf: repeatElement(0, count: sampleCount))
        }
        try samples.withUnsafeMutableBufferPointer { samples in
            guard let base = samples.baseAddress else { return }
            var renderedFrames = 0
            while renderedFrames < frameCount {
                // Off the lock: the next update's chunks, decoded here rather than by the decode
                // thread in parallel (see DecodeWorker).
                decodeWorker.decodeOnCallingThread()
                renderedFrames += try withRenderingCore("render(frameCount:)", gathering: &raised) { core -> Int in
                    // A switch to another format from another thread mid-render: the rest of
                    // this render is silence in the format it began in.
                    guard core.device.currentOutput == output else {
                        (base + renderedFrames * channelCount).update(repeating: 0, count: (frameCount - renderedFrames) * channelCount)
                        return frameCount - renderedFrames
                    }
                    return core.renderStretch(into: base + renderedFrames * channelCount, frameCount: frameCount - renderedFrames,
                                              channelCount: channelCount)
                }
            }
        }
    }

    /// Like ``withCore(_:_:)`` for one stretch of a render: the events it raised are added to
    /// `raised`, which the render delivers when it ends.
    private func withRenderingCore<Result>(_ call: @autoclosure () -> String, gathering raised: inout [EngineEvent],
                                           _ body: (EngineCore) throws -> Result) throws -> Result {
        let (result, stretchEvents) = try callCore(call(), body)
        raised += stretchEvents
        return result
    }

    // MARK: Sounds

    private static let nextSoundID = Atomic<Int>(1)

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
        let canonicalPath = SoundCache.canonicalPath(path)
        if let canonicalPath, let cached = soundCache.sound(at: canonicalPath) { return cached }
        let sound = try loadFileSound(path: path)
        guard let canonicalPath else { return sound }
        let kept = soundCache.keep(sound, at: canonicalPath)
        // Two synchronous loads of one file raced: the first kept wins, the other goes.
        if kept !== sound { try? unloadSound(sound) }
        return kept
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
        guard let canonicalPath = SoundCache.canonicalPath(path) else {
            // Not a file that resolves: the decoder says why, off the caller's thread all the same.
            return try await Self.offCallerThread { [self] in try loadFileSound(path: path) }
        }
        return try await soundCache.sound(at: canonicalPath) { [self] in
            try await Self.offCallerThread { [self] in try loadFileSound(path: path) }
        }
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
        let sound = try decodeSound(decoder: decoder)
        try register(sound)
        return sound
    }

    /// Like the synchronous `loadSound(decoder:)`, but the decoder is read on a background
    /// thread, so neither the caller's thread nor the engine's lock waits for it.
    public func loadSound(decoder: sending any AudioDecoder) async throws -> Sound {
        // `sending`: the caller gave the decoder up, so the background thread is its only user.
        nonisolated(unsafe) let handedOver = decoder
        let sound = try await Self.offCallerThread { [self] in try decodeSound(decoder: handedOver) }
        try register(sound)
        return sound
    }

    /// Makes a ``Sound`` from interleaved float samples (generated audio, a game's own
    /// formats). Any thread.
    public func makeSound(name: String, format: AudioFormat, samples: [Float]) throws -> Sound {
        let sound = try newSound(name: name, format: format, samples: .float32(samples), loopRegion: nil)
        try register(sound)
        return sound
    }

    /// Decodes `path` and registers the sound: straight into a buffer on the device when one
    /// can take it now, else into memory (kept until its first upload).
    private func loadFileSound(path: String) throws -> Sound {
        let decoder = try DecoderFactory.open(path: path)
        try Self.checkFormat(decoder.format, name: path)
        let uploadsNow: Bool
        switch try streamIntoDevice(decoder, path: path) {
        case .loaded(let sound): return sound
        case .intoMemory(let uploads): uploadsNow = uploads
        }
        let decoded = try DecoderFactory.decodeSound(path: path)
        let file = SoundFile(path: path, checksum: PCMChecksum(of: decoded.samples))
        let sound = try newSound(name: path, format: decoded.format, samples: decoded.samples, file: file, loopRegion: decoded.loopRegion)
        if uploadsNow {
            try register(sound)
        } else {
            try withCore("loadSound(\(path))") { $0.sounds.register(sound) }
        }
        return sound
    }

    /// What became of a load straight into the device's buffer.
    private enum StreamOutcome {
        /// Done: the sound is registered with its buffer.
        case loaded(Sound)
        /// Not done (no device now, say): decode into memory, and upload now (`uploads`) or, after
        /// an AL error (counted), on first use.
        case intoMemory(uploads: Bool)
    }

    /// A buffer on the device that a file is being decoded into.
    private struct StreamedLoad {
        var device: ALDevice
        var buffer: ALBuffer
        var mapping: ALBufferMapping
    }

    /// How a load straight into the device's buffer began.
    private enum StreamStart {
        case ready(StreamedLoad)
        /// No device to write into now (or one that cannot map buffers).
        case noDevice
        /// An AL error, counted.
        case failed
    }

    /// The load gave up on the device (it changed, the session was interrupted, or an AL error).
    private struct LoadLeftDevice: Error {}

    /// Decodes `decoder` a chunk at a time into a new buffer on the current device, each chunk
    /// written in place under the engine's lock for a moment, then registers the sound. When
    /// that cannot be done now (no device, an interruption, no AL_SOFT_map_buffer, a device
    /// change meanwhile, a length other than the header's, an AL error), nothing is registered
    /// and the caller decodes into memory instead.
    private func streamIntoDevice(_ decoder: any AudioDecoder, path: String) throws -> StreamOutcome {
        let format = decoder.format
        let frameCount = decoder.frameCount
        let isFloat = !SoundFileReader.isSixteenBit(decoder)
        let bytesPerFrame = format.channelCount * (isFloat ? MemoryLayout<Float>.size : MemoryLayout<Int16>.size)
        // One OpenAL buffer holds at most 2 GiB; a longer (or damaged) header goes the other way.
        guard frameCount > 0, frameCount <= Int(Int32.max) / bytesPerFrame else { return .intoMemory(uploads: true) }
        let byteCount = frameCount * bytesPerFrame
        let call = "loadSound(\(path))"
        let start = try withCore(call) { core -> StreamStart in
            guard core.al.isOpen else { return .noDevice }
            do {
                let made = try core.device.withContext { device -> StreamedLoad? in
                    guard let mapping = device.extensions.bufferMapping else { return nil }
                    let buffer = try device.makeBuffer()
                    do {
                        try buffer.allocate(byteCount: byteCount, format: format, isFloat: isFloat, using: mapping)
                    } catch {
                        try device.deleteBuffer(buffer)
                        throw error
                    }
                    return StreamedLoad(device: device, buffer: buffer, mapping: mapping)
                }
                guard let made, let made else { return .noDevice }
                return .ready(made)
            } catch {
                core.al.count(error, in: call)
                return .failed
            }
        }
        let target: StreamedLoad
        switch start {
        case .ready(let load): target = load
        case .noDevice: return .intoMemory(uploads: true)
        case .failed: return .intoMemory(uploads: false)
        }
        let result: SoundFileReader.Result
        do {
            result = try SoundFileReader.read(decoder, frameLimit: frameCount, measuresLoudness: true) { chunk, byteOffset in
                let written = try withCore(call) { core -> Bool in
                    guard core.al.isOpen, core.device.openDevice === target.device else { return false }
                    do {
                        return try core.device.withContext { _ in
                            try target.buffer.withMappedBytes(byteOffset: byteOffset, byteCount: chunk.count, writes: true,
                                                              using: target.mapping) { $0.copyMemory(from: chunk) }
                            return true
                        } ?? false
                    } catch {
                        core.al.count(error, in: call)
                        return false
                    }
                }
                if !written { throw LoadLeftDevice() }
            }
        } catch {
            abandon(target)
            if error is LoadLeftDevice { return .intoMemory(uploads: true) }
            throw error
        }
        guard result.frameCount == frameCount, !result.hasMore else {
            abandon(target)
            return .intoMemory(uploads: true)
        }
        let sound = Sound(name: path, format: format, frameCount: frameCount, isFloat: isFloat, kept: nil,
                          file: SoundFile(path: path, checksum: result.checksum), levels: result.levels,
                          integratedLoudnessLUFS: result.integratedLoudnessLUFS ?? -.infinity,
                          loopRegion: decoder.loopRegion, id: Self.nextSoundID.wrappingAdd(1, ordering: .relaxed).oldValue,
                          engineID: engineID)
        let registered = try withCore(call) { core -> Bool in
            guard core.al.isOpen, core.device.openDevice === target.device else { return false }
            do {
                _ = try core.device.withContext { _ in
                    if let loopRegion = sound.loopRegion { try target.buffer.setLoopPoints(loopRegion) }
                }
            } catch {
                core.al.count(error, in: call)
                return false
            }
            core.sounds.register(sound, native: target.buffer)
            return true
        }
        guard registered else {
            abandon(target)
            return .intoMemory(uploads: true)
        }
        return .loaded(sound)
    }

    /// Deletes the buffer of a load that gave up, if its device is still the engine's (one
    /// closed since took its buffers with it).
    private func abandon(_ load: StreamedLoad) {
        withLiveCore { core in
            guard core.device.openDevice === load.device else { return }
            core.sounds.discard(load.buffer)
            core.al.run("loadSound: release") { device in try core.voices.releaseDeferred(on: device) }
        }
    }

    /// Decodes a game's decoder into a sound not yet registered.
    private func decodeSound(decoder: any AudioDecoder) throws -> Sound {
        let format = decoder.format
        let maximumFrameCount = 1 << 27
        guard (1...2).contains(format.channelCount), (1_000...384_000).contains(format.sampleRate) else {
            throw InterludeError(.unsupportedFormat, "loadSound(decoder: \(decoder.path)): \(format.channelCount) channels at \(format.sampleRate) Hz is not supported (1 or 2 channels, 1000...384000 Hz)")
        }
        guard (1...maximumFrameCount).contains(decoder.frameCount) else {
            throw InterludeError(.invalidArgument, "loadSound(decoder: \(decoder.path)): frameCount \(decoder.frameCount) is outside 1...\(maximumFrameCount)")
        }
        let decoded = try DecoderFactory.decodeSound(decoder: decoder)
        return try newSound(name: decoder.path, format: decoded.format, samples: decoded.samples, loopRegion: decoded.loopRegion)
    }

    private func newSound(name: String, format: AudioFormat, samples: SoundSamples, file: SoundFile? = nil,
                          loopRegion: Range<Int>?) throws -> Sound {
        try Self.checkFormat(format, name: name)
        guard samples.count > 0, samples.count % format.channelCount == 0 else {
            throw InterludeError(.invalidArgument, "makeSound(\(name)): \(samples.count) samples is not a whole, non-zero number of frames")
        }
        return Sound(name: name, format: format, samples: samples, file: file, loopRegion: loopRegion,
                     id: Self.nextSoundID.wrappingAdd(1, ordering: .relaxed).oldValue, engineID: engineID)
    }

    /// Throws `.unsupportedFormat` for a format a sound cannot have.
    private static func checkFormat(_ format: AudioFormat, name: String) throws {
        guard (1...2).contains(format.channelCount), (1_000...384_000).contains(format.sampleRate) else {
            throw InterludeError(.unsupportedFormat, "makeSound(\(name)): \(format.channelCount) channels at \(format.sampleRate) Hz is not supported (1 or 2 channels, 1000...384000 Hz)")
        }
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
            core.voices.removeVoices(of: sound, reason: .stopped)
            core.sounds.unload(sound)
            // While interrupted no AL call may be made: the buffers are deleted when it ends.
            core.al.run("unloadSound(\(sound.name))") { device in try core.voices.releaseDeferred(on: device) }
        }
    }

    // MARK: Voices

    /// Starts a voice of `sound`. While interrupted, a looping voice starts when the session is
    /// active again and a one-shot is dropped (the returned handle is stale). Throws
    /// `.invalidArgument` for out-of-range parameters, `.tooManyVoices` when every voice is in
    /// use, `.foreignObject` for a sound from another engine, `.fileNotFound` for a sound lost
    /// because its file changed or vanished before a new device could decode it again
    /// (``DeviceEvent/soundLost(name:reason:)``). Any thread.
    @discardableResult
    public func play(_ sound: Sound, parameters: VoiceParameters = VoiceParameters()) throws -> VoiceHandle {
        try withCore("play(\(sound.name))") { core in
            try core.sounds.checkNotLost(sound)
            return try core.voices.play(sound, parameters: parameters, isSystemSound: false, command: "play")
        }
    }

    /// Plays a short UI sound, unpositioned, in the ``GroupID/ui`` group. Dropped during an
    /// interruption, never resumed after one (``VoiceEndReason/interrupted``), usable again as
    /// soon as it ends. Any thread.
    @discardableResult
    public func playSystemSound(_ sound: Sound, gain: Float = 1) throws -> VoiceHandle {
        var parameters = VoiceParameters()
        parameters.gain = gain
        parameters.group = .ui
        return try withCore("playSystemSound(\(sound.name))") { core in
            try core.sounds.checkNotLost(sound)
            return try core.voices.play(sound, parameters: parameters, isSystemSound: true, command: "playSystemSound")
        }
    }

    /// Sets a voice's gain (>= 0): at once, or moving there over `fadeSeconds` along `curve`.
    /// Any thread.
    public func setGain(_ gain: Float, of voice: VoiceHandle, fadeSeconds: Double = 0, curve: FadeCurve = .linear) throws {
        try Validate.seconds(fadeSeconds, "fadeSeconds", in: "setGain(of: voice)")
        try withCore("setGain(of: voice)") {
            try $0.voices.setGain(gain, of: voice, fadeSeconds: fadeSeconds, curve: curve, call: "setGain(of: voice)")
        }
    }

    /// Sets a voice's pitch (> 0; 2 is an octave up): at once, or gliding there over
    /// `fadeSeconds` along `curve`. Any thread.
    public func setPitch(_ pitch: Float, of voice: VoiceHandle, fadeSeconds: Double = 0, curve: FadeCurve = .linear) throws {
        try Validate.seconds(fadeSeconds, "fadeSeconds", in: "setPitch(of: voice)")
        try withCore("setPitch(of: voice)") {
            try $0.voices.setPitch(pitch, of: voice, fadeSeconds: fadeSeconds, curve: curve, call: "setPitch(of: voice)")
        }
    }

    /// Pauses a voice at its frame: at once, or after fading to silence over `fadeSeconds` (its
    /// gain is back for the resume). Tracked while interrupted. Any thread.
    public func pause(_ voice: VoiceHandle, fadeSeconds: Double = 0) throws {
        try Validate.seconds(fadeSeconds, "fadeSeconds", in: "pause(voice)")
        try withCore("pause(voice)") { $0.voices.pause(voice, fadeSeconds: fadeSeconds) }
    }

    /// Resumes a paused voice at the frame it paused on: at once, or fading in from silence
    /// over `fadeSeconds`. Tracked while interrupted. Any thread.
    public func resume(_ voice: VoiceHandle, fadeSeconds: Double = 0) throws {
        try Validate.seconds(fadeSeconds, "fadeSeconds", in: "resume(voice)")
        try withCore("resume(voice)") { $0.voices.resume(voice, fadeSeconds: fadeSeconds) }
    }

    /// Stops a voice: at once, or after fading to silence over `fadeSeconds`. Its handle goes
    /// stale, and ``VoiceEvent/finished(_:reason:)`` says so. Any thread.
    public func stop(_ voice: VoiceHandle, fadeSeconds: Double = 0) throws {
        try Validate.seconds(fadeSeconds, "fadeSeconds", in: "stop(voice)")
        try withCore("stop(voice)") { $0.voices.stop(voice, fadeSeconds: fadeSeconds) }
    }

    /// Moves a positional voice; OpenAL hears it at the next update. Any thread.
    public func setPosition(_ position: Vector3, of voice: VoiceHandle) throws {
        try withCore("setPosition(of: voice)") { try $0.voices.setPosition(position, of: voice) }
    }

    /// Moves many positional voices under one lock: `positions[i]` goes to `voices[i]`. For a game
    /// moving its emitters every frame. Stale handles are skipped. Throws `.invalidArgument`, moving
    /// none, when the counts differ, a position is not finite or a voice is unpositioned. Any thread.
    public func setPositions(_ positions: [Vector3], of voices: [VoiceHandle]) throws {
        try withCore("setPositions(of: voices)") { try $0.voices.setPositions(positions, of: voices) }
    }

    /// Sets a positional voice's velocity, for doppler. Any thread.
    public func setVelocity(_ velocity: Vector3, of voice: VoiceHandle) throws {
        try withCore("setVelocity(of: voice)") {
            try $0.voices.change(voice, call: "setVelocity(of: voice)") { $0.velocity = velocity }
        }
    }

    /// Changes any of a voice's parameters at once, as one read-modify-write under the engine's
    /// lock (a positional voice stays positional). Any thread.
    public func changeParameters(of voice: VoiceHandle, _ change: (inout VoiceParameters) -> Void) throws {
        try withCore("changeParameters(of: voice)") { try $0.voices.change(voice, call: "changeParameters(of: voice)", change) }
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
    public func changeListener(_ change: (inout Listener) -> Void) throws {
        try withCore("changeListener") { core in
            var changed = core.world.listener
            change(&changed)
            try changed.validate(in: "changeListener")
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
