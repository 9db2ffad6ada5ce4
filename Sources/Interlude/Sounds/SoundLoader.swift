import Dispatch
import Synchronization

/// Turns files, a game's decoders and a game's samples into registered ``Sound``s: the work
/// behind ``SoundEngine``'s `loadSound` and `makeSound` calls. Decoding runs on the calling
/// thread (or a background one for the async calls) with the engine lock released; a file goes a
/// chunk at a time straight into a mapped OpenAL buffer where the device can take it, the lock
/// held for a moment per chunk. The cache makes one file load once.
final class SoundLoader: Sendable {
    private static let nextSoundID = Atomic<Int>(1)
    private let lock: EngineLock
    private let engineID: Int
    /// Loaded files by canonical path: the same file loads once.
    private let soundCache = SoundCache()

    init(lock: EngineLock, engineID: Int) {
        self.lock = lock
        self.engineID = engineID
    }

    /// The synchronous `loadSound(path:)`: a cached sound, or the file decoded into one.
    func load(path: String) throws -> Sound {
        let canonicalPath = SoundCache.canonicalPath(path)
        if let canonicalPath, let cached = soundCache.sound(at: canonicalPath) { return cached }
        let sound = try loadFileSound(path: path)
        guard let canonicalPath else { return sound }
        let kept = soundCache.keep(sound, at: canonicalPath)
        // Two synchronous loads of one file raced: the first kept wins, the other goes.
        if kept !== sound { try? unload(sound) }
        return kept
    }

    /// The async `loadSound(path:)`: decoded on a background thread; overlapping loads of one
    /// file share one decode.
    func load(path: String) async throws -> Sound {
        guard let canonicalPath = SoundCache.canonicalPath(path) else {
            // Not a file that resolves: the decoder says why, off the caller's thread all the same.
            return try await Self.offCallerThread { [self] in try loadFileSound(path: path) }
        }
        return try await soundCache.sound(at: canonicalPath) { [self] in
            try await Self.offCallerThread { [self] in try loadFileSound(path: path) }
        }
    }

    /// The synchronous `loadSound(decoder:)`: the decoder read to its end, then registered.
    func load(decoder: sending any AudioDecoder) throws -> Sound {
        let sound = try decodeSound(decoder: decoder)
        try register(sound)
        return sound
    }

    /// The async `loadSound(decoder:)`: the decoder read on a background thread.
    func load(decoder: sending any AudioDecoder) async throws -> Sound {
        // `sending`: the caller gave the decoder up, so the background thread is its only user.
        nonisolated(unsafe) let handedOver = decoder
        let sound = try await Self.offCallerThread { [self] in try decodeSound(decoder: handedOver) }
        try register(sound)
        return sound
    }

    /// ``SoundEngine/makeSound(name:format:samples:)``: a game's samples, checked and registered.
    func make(name: String, format: AudioFormat, samples: [Float]) throws -> Sound {
        let sound = try newSound(name: name, format: format, samples: .float32(samples), loopRegion: nil,
                                 call: "makeSound(\(name))")
        try register(sound)
        return sound
    }

    /// ``SoundEngine/unloadSound(_:)``: out of the cache, its voices stopped, its buffers freed.
    func unload(_ sound: Sound) throws {
        soundCache.remove(sound)
        try lock.withCore("unloadSound(\(sound.name))") { core in
            core.voiceSources.removeVoices(of: sound, reason: .stopped)
            core.sounds.unload(sound)
            // While interrupted no AL call may be made: the buffers are deleted when it ends.
            core.al.run("unloadSound(\(sound.name))") { _ in try core.voiceSources.releaseDeferred() }
        }
    }

    /// Decodes `path` and registers the sound: straight into a buffer on the device when one
    /// can take it now, else into memory (kept until its first upload).
    private func loadFileSound(path: String) throws -> Sound {
        let decoder = try DecoderFactory.open(path: path)
        try decoder.format.checkSupported(in: "loadSound(\(path))")
        let uploadsNow: Bool
        switch try streamIntoDevice(decoder, path: path) {
        case .loaded(let sound): return sound
        case .intoMemory(let uploads): uploadsNow = uploads
        }
        let decoded = try DecoderFactory.decodeSound(path: path)
        let file = SoundFile(path: path, checksum: PCMChecksum(of: decoded.samples))
        let sound = try newSound(name: path, format: decoded.format, samples: decoded.samples, file: file,
                                 loopRegion: decoded.loopRegion, call: "loadSound(\(path))")
        if uploadsNow {
            try register(sound)
        } else {
            try lock.withCore("loadSound(\(path))") { $0.sounds.register(sound) }
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

    /// How a load straight into the device's buffer began.
    private enum StreamStart {
        case ready(BufferFill)
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
        let start = try lock.withCore(call) { core -> StreamStart in
            guard core.al.isOpen else { return .noDevice }
            do {
                let made = try core.device.withContext { device in
                    try BufferFill.begin(on: device, byteCount: byteCount, format: format, isFloat: isFloat)
                }
                guard let made, let made else { return .noDevice }
                return .ready(made)
            } catch {
                core.al.count(error, in: call)
                return .failed
            }
        }
        let target: BufferFill
        switch start {
        case .ready(let load): target = load
        case .noDevice: return .intoMemory(uploads: true)
        case .failed: return .intoMemory(uploads: false)
        }
        let result: SoundFileReader.Result
        do {
            result = try SoundFileReader.read(decoder, frameLimit: frameCount, measuresLoudness: true) { chunk, byteOffset in
                let written = try lock.withCore(call) { core -> Bool in
                    guard core.al.isOpen, target.isOn(core.device.openDevice) else { return false }
                    do {
                        return try core.device.withContext { _ in
                            try target.write(chunk, at: byteOffset)
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
                          loopRegion: decoder.loopRegion, id: SoundLoader.nextSoundID.wrappingAdd(1, ordering: .relaxed).oldValue,
                          engineID: engineID)
        let registered = try lock.withCore(call) { core -> Bool in
            guard core.al.isOpen, target.isOn(core.device.openDevice) else { return false }
            do {
                _ = try core.device.withContext { _ in try target.finish(loopRegion: sound.loopRegion) }
            } catch {
                core.al.count(error, in: call)
                return false
            }
            core.sounds.register(sound, filled: target)
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
    private func abandon(_ load: BufferFill) {
        lock.withLiveCore { core in
            guard load.isOn(core.device.openDevice) else { return }
            core.sounds.discard(load)
            core.al.run("loadSound: release") { _ in try core.voiceSources.releaseDeferred() }
        }
    }

    /// Decodes a game's decoder into a sound not yet registered.
    private func decodeSound(decoder: any AudioDecoder) throws -> Sound {
        let format = decoder.format
        let maximumFrameCount = 1 << 27
        try format.checkSupported(in: "loadSound(decoder: \(decoder.path))")
        guard (1...maximumFrameCount).contains(decoder.frameCount) else {
            throw InterludeError(.invalidArgument, "loadSound(decoder: \(decoder.path)): frameCount \(decoder.frameCount) is outside 1...\(maximumFrameCount)")
        }
        let decoded = try DecoderFactory.decodeSound(decoder: decoder)
        return try newSound(name: decoder.path, format: decoded.format, samples: decoded.samples, loopRegion: decoded.loopRegion,
                            call: "loadSound(decoder: \(decoder.path))")
    }

    /// A new sound of checked samples; `call` names the public call in its errors.
    private func newSound(name: String, format: AudioFormat, samples: SoundSamples, file: SoundFile? = nil,
                          loopRegion: Range<Int>?, call: String) throws -> Sound {
        try format.checkSupported(in: call)
        guard samples.count > 0, samples.count % format.channelCount == 0 else {
            throw InterludeError(.invalidArgument, "\(call): \(samples.count) samples is not a whole, non-zero number of frames")
        }
        return Sound(name: name, format: format, samples: samples, file: file, loopRegion: loopRegion,
                     id: SoundLoader.nextSoundID.wrappingAdd(1, ordering: .relaxed).oldValue, engineID: engineID)
    }

    /// Registers a decoded sound with the engine and uploads its buffers (when AL may be called).
    private func register(_ sound: Sound) throws {
        try lock.withCore("loadSound(\(sound.name))") { core in
            core.sounds.register(sound)
            core.al.run("loadSound(\(sound.name))") { _ in _ = try core.sounds.buffers(for: sound) }
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
}
