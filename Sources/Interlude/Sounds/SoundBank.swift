/// The loaded sounds and their AL buffers on the current device. A sound's buffers are made on
/// first use and made again on a new device; buffers of a sound unloaded while no AL call may
/// be made are deleted when one may. A stereo sound's mono downmix is made only when a
/// positional voice first needs it, from the sound's own buffer; a new device gets it again
/// only if the old one had it.
///
/// A file sound's samples live only in OpenAL's buffer: a new device decodes the file again off
/// the engine lock (``SoundUpload``). One whose samples the engine still keeps in Swift (loaded
/// while no AL call could be made) lets them go once uploaded. A sound whose file changed or
/// vanished before a new device could decode it is lost: its voices go, playing it throws, and
/// ``takeLostSounds()`` hands it to the session to say so.
final class SoundBank {
    private var sounds: [Int: Sound] = [:]
    private var buffersBySound: [Int: SoundBuffers] = [:]
    /// Stereo sounds whose mono downmix a positional voice has needed: uploaded again on a new
    /// device.
    private var soundsWithMono: Set<Int> = []
    /// Buffers of sounds unloaded while interrupted: deleted when the session is active.
    private var buffersToDelete: [ALBuffer] = []
    /// Sounds that cannot come back on this device, and why.
    private var lostSounds: [Int: String] = [:]
    /// Sounds lost since ``takeLostSounds()`` was last called.
    private var newlyLost: [(sound: Sound, reason: String)] = []

    /// A sound a new device needs, and whether with its mono downmix: what an upload made off
    /// the engine lock (``DevicePreparation``) works from.
    struct Upload: Sendable {
        var sound: Sound
        var withMono: Bool
    }

    /// How many sounds are loaded.
    var count: Int { sounds.count }

    /// The sound is loaded here.
    func contains(_ sound: Sound) -> Bool { sounds[sound.id] != nil }

    /// Keeps `sound`; its buffers are made by ``buffers(for:on:)``.
    func register(_ sound: Sound) {
        sounds[sound.id] = sound
    }

    /// Keeps `sound` with its buffer on the current device, already written (a file streamed
    /// straight into it).
    func register(_ sound: Sound, native: ALBuffer) {
        sounds[sound.id] = sound
        buffersBySound[sound.id] = SoundBuffers(native: native, mono: nil)
    }

    /// A buffer made on the current device for a load that gave up: deleted with the next
    /// deferred releases.
    func discard(_ buffer: ALBuffer) {
        buffersToDelete.append(buffer)
    }

    /// Forgets `sound`; its buffers wait for ``deleteUnloadedBuffers(on:)``. Call once no
    /// voice plays it.
    func unload(_ sound: Sound) {
        if let buffers = buffersBySound.removeValue(forKey: sound.id) {
            buffersToDelete.append(buffers.native)
            if let mono = buffers.mono { buffersToDelete.append(mono) }
        }
        soundsWithMono.remove(sound.id)
        lostSounds[sound.id] = nil
        sounds[sound.id] = nil
    }

    /// Throws `.fileNotFound`, saying why, for a sound lost to a changed or vanished file.
    func checkNotLost(_ sound: Sound) throws {
        if let reason = lostSounds[sound.id] { throw InterludeError(.fileNotFound, reason) }
    }

    /// The buffer a voice of `sound` plays on `device`: the mono downmix for a positional voice
    /// of a stereo sound (`mono`), the sound's own samples otherwise. Uploads what is missing.
    func buffer(for sound: Sound, mono: Bool, on device: ALDevice) throws -> ALBuffer {
        let buffers = try buffers(for: sound, on: device)
        guard mono, sound.format.channelCount == 2 else { return buffers.native }
        if let existing = buffers.mono { return existing }
        let monoBuffer = try Self.makeMono(of: sound, from: buffers.native, on: device)
        buffersBySound[sound.id]?.mono = monoBuffer
        soundsWithMono.insert(sound.id)
        return monoBuffer
    }

    /// The sound's buffers on `device`, uploading its kept samples on first use, and its mono
    /// downmix when a positional voice needed it on an earlier device. Throws for a lost sound.
    func buffers(for sound: Sound, on device: ALDevice) throws -> SoundBuffers {
        if let existing = buffersBySound[sound.id] { return existing }
        if let reason = lostSounds[sound.id] { throw InterludeError(.fileNotFound, reason) }
        guard let samples = sound.kept.current else {
            // Only a device's preparation decodes files: one that missed this sound cannot.
            let reason = "\(sound.name): not decoded for the new device, and its samples are not kept; load it again"
            markLost(sound, reason: reason)
            throw InterludeError(.fileNotFound, reason)
        }
        let native = try Self.makeBuffer(samples, of: sound, channelCount: sound.format.channelCount, on: device)
        var buffers = SoundBuffers(native: native, mono: nil)
        buffersBySound[sound.id] = buffers
        if sound.file != nil && device.extensions.bufferMapping != nil { sound.kept.drop() }
        if soundsWithMono.contains(sound.id) {
            buffers.mono = try Self.makeMono(of: sound, from: native, on: device)
            buffersBySound[sound.id] = buffers
        }
        return buffers
    }

    /// Uploads every loaded sound to a new device (those it does not have yet). A sound that
    /// cannot be is lost (``takeLostSounds()``); the others are uploaded all the same.
    func uploadAll(on device: ALDevice) throws {
        for sound in sounds.values.sorted(by: { $0.id < $1.id }) where lostSounds[sound.id] == nil {
            do {
                _ = try buffers(for: sound, on: device)
            } catch let error as InterludeError where error.code == .fileNotFound {
                continue
            }
        }
    }

    /// What a new device needs uploaded: every loaded sound not lost, in load order.
    var uploads: [Upload] {
        sounds.values.filter { lostSounds[$0.id] == nil }.sorted { $0.id < $1.id }
            .map { Upload(sound: $0, withMono: soundsWithMono.contains($0.id)) }
    }

    /// Takes the buffers uploaded to the new device off the lock, by sound id, and the sounds
    /// its preparation found lost (their file changed or vanished), with why. A sound unloaded
    /// since has its buffers deleted with the next deferred releases; one loaded since is
    /// uploaded by ``uploadAll(on:)``.
    /// `mapsBuffers`: the new device maps buffers, so a file sound's kept samples (loaded while
    /// no device could take them) may go once it has them.
    func adopt(_ prepared: [Int: SoundBuffers], lost: [Int: String], mapsBuffers: Bool) {
        for (id, buffers) in prepared.sorted(by: { $0.key < $1.key }) {
            if let sound = sounds[id], buffersBySound[id] == nil {
                buffersBySound[id] = buffers
                if sound.file != nil && mapsBuffers { sound.kept.drop() }
            } else {
                buffersToDelete.append(buffers.native)
                if let mono = buffers.mono { buffersToDelete.append(mono) }
            }
        }
        for (id, reason) in lost.sorted(by: { $0.key < $1.key }) {
            guard let sound = sounds[id], buffersBySound[id] == nil else { continue }
            markLost(sound, reason: reason)
        }
    }

    /// The sounds lost since the last call, with why: the session removes their voices and
    /// raises ``DeviceEvent/soundLost(name:reason:)``.
    func takeLostSounds() -> [(sound: Sound, reason: String)] {
        defer { newlyLost = [] }
        return newlyLost
    }

    /// Before `device` closes for a switch whose new device was prepared without them: keeps in
    /// Swift the samples of the sounds loaded meanwhile (`prepared` lacks them), read back from
    /// their buffers, so the new device gets them with ``uploadAll(on:)``. Call with the old
    /// device's context current.
    func keepSamplesMissing(from prepared: Set<Int>, on device: ALDevice) throws {
        guard let mapping = device.extensions.bufferMapping else { return }
        for (id, buffers) in buffersBySound where !prepared.contains(id) {
            guard let sound = sounds[id], sound.kept.current == nil else { continue }
            let samples: SoundSamples = try buffers.native.withMappedBytes(byteOffset: 0, byteCount: sound.byteCount, writes: false, using: mapping) { bytes in
                sound.isFloat ? .float32(Array(bytes.assumingMemoryBound(to: Float.self)))
                              : .int16(Array(bytes.assumingMemoryBound(to: Int16.self)))
            }
            sound.kept.restore(samples)
        }
    }

    /// Deletes the buffers of sounds unloaded meanwhile. Call after the sources that held them
    /// were released.
    func deleteUnloadedBuffers(on device: ALDevice) throws {
        while let buffer = buffersToDelete.popLast() {
            try device.deleteBuffer(buffer)
        }
    }

    /// Forgets every buffer name: the device that held them is gone.
    func forgetDevice() {
        buffersBySound.removeAll()
        buffersToDelete.removeAll()
    }

    private func markLost(_ sound: Sound, reason: String) {
        lostSounds[sound.id] = reason
        soundsWithMono.remove(sound.id)
        newlyLost.append((sound, reason))
    }

    /// A new buffer on `device` holding `samples` of `sound`, with its loop points: written in
    /// place where the device maps buffers (so its sound's mono downmix can be read from it).
    static func makeBuffer(_ samples: SoundSamples, of sound: Sound, channelCount: Int, on device: ALDevice) throws -> ALBuffer {
        let buffer = try device.makeBuffer()
        let format = AudioFormat(sampleRate: sound.format.sampleRate, channelCount: channelCount)
        do {
            if let mapping = device.extensions.bufferMapping {
                try upload(samples, to: buffer, format: format, using: mapping)
            } else {
                switch samples {
                case .int16(let values): try values.withUnsafeBufferPointer { try buffer.upload($0, format: format) }
                case .float32(let values): try values.withUnsafeBufferPointer { try buffer.upload($0, format: format) }
                }
            }
            if let loopRegion = sound.loopRegion { try buffer.setLoopPoints(loopRegion) }
        } catch {
            try device.deleteBuffer(buffer)
            throw error
        }
        return buffer
    }

    /// Allocates `buffer`'s storage and copies `samples` into it.
    private static func upload(_ samples: SoundSamples, to buffer: ALBuffer, format: AudioFormat, using mapping: ALBufferMapping) throws {
        func copy(_ bytes: UnsafeRawBufferPointer) throws {
            try buffer.allocate(byteCount: bytes.count, format: format, isFloat: samples.isFloat, using: mapping)
            try buffer.withMappedBytes(byteOffset: 0, byteCount: bytes.count, writes: true, using: mapping) { target in
                target.copyMemory(from: bytes)
            }
        }
        switch samples {
        case .int16(let values): try values.withUnsafeBytes(copy)
        case .float32(let values): try values.withUnsafeBytes(copy)
        }
    }

    /// The mono downmix of stereo `sound` as a new buffer on `device`: read from its buffer
    /// `native` and written in place where the device maps buffers, else made from its kept
    /// samples. No Swift copy of it stays.
    static func makeMono(of sound: Sound, from native: ALBuffer, on device: ALDevice) throws -> ALBuffer {
        guard let mapping = device.extensions.bufferMapping else {
            guard let samples = sound.kept.current else {
                throw InterludeError(.openAL, "\(sound.name): no mono downmix without AL_SOFT_map_buffer or kept samples")
            }
            return try makeBuffer(.float32(samples.stereoDownmix()), of: sound, channelCount: 1, on: device)
        }
        let buffer = try device.makeBuffer()
        do {
            let monoByteCount = sound.frameCount * MemoryLayout<Float>.size
            try buffer.allocate(byteCount: monoByteCount, format: AudioFormat(sampleRate: sound.format.sampleRate, channelCount: 1),
                                isFloat: true, using: mapping)
            try native.withMappedBytes(byteOffset: 0, byteCount: sound.byteCount, writes: false, using: mapping) { stereo in
                try buffer.withMappedBytes(byteOffset: 0, byteCount: monoByteCount, writes: true, using: mapping) { mono in
                    SoundSamples.stereoDownmix(UnsafeRawBufferPointer(stereo), isFloat: sound.isFloat, into: mono.bindMemory(to: Float.self))
                }
            }
            if let loopRegion = sound.loopRegion { try buffer.setLoopPoints(loopRegion) }
        } catch {
            try device.deleteBuffer(buffer)
            throw error
        }
        return buffer
    }
}
