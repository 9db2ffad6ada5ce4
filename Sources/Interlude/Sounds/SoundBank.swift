/// The loaded sounds and their AL buffers on the current device. A sound's buffers are made on
/// first use and made again on a new device; buffers of a sound unloaded while no AL call may
/// be made are deleted when one may. A stereo sound's mono downmix is made only when a
/// positional voice first needs it; a new device gets it again only if the old one had it.
final class SoundBank {
    private var sounds: [Int: Sound] = [:]
    private var buffersBySound: [Int: SoundBuffers] = [:]
    /// Stereo sounds whose mono downmix a positional voice has needed: uploaded again on a new
    /// device with their own samples.
    private var soundsWithMono: Set<Int> = []
    /// Buffers of sounds unloaded while interrupted: deleted when the session is active.
    private var buffersToDelete: [ALBuffer] = []

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

    /// Forgets `sound`; its buffers wait for ``deleteUnloadedBuffers(on:)``. Call once no
    /// voice plays it.
    func unload(_ sound: Sound) {
        if let buffers = buffersBySound.removeValue(forKey: sound.id) {
            buffersToDelete.append(buffers.native)
            if let mono = buffers.mono { buffersToDelete.append(mono) }
        }
        soundsWithMono.remove(sound.id)
        sounds[sound.id] = nil
    }

    /// The buffer a voice of `sound` plays on `device`: the mono downmix for a positional voice
    /// of a stereo sound (`mono`), the sound's own samples otherwise. Uploads what is missing.
    func buffer(for sound: Sound, mono: Bool, on device: ALDevice) throws -> ALBuffer {
        let buffers = try buffers(for: sound, on: device)
        guard mono, sound.format.channelCount == 2 else { return buffers.native }
        if let existing = buffers.mono { return existing }
        let monoBuffer = try Self.makeBuffer(.float32(sound.monoDownmix()), of: sound, channelCount: 1, on: device)
        buffersBySound[sound.id]?.mono = monoBuffer
        soundsWithMono.insert(sound.id)
        return monoBuffer
    }

    /// The sound's buffers on `device`, uploading its own samples on first use, and its mono
    /// downmix when a positional voice needed it on an earlier device.
    func buffers(for sound: Sound, on device: ALDevice) throws -> SoundBuffers {
        if let existing = buffersBySound[sound.id] { return existing }
        let native = try Self.makeBuffer(sound.samples, of: sound, channelCount: sound.format.channelCount, on: device)
        var buffers = SoundBuffers(native: native, mono: nil)
        buffersBySound[sound.id] = buffers
        if soundsWithMono.contains(sound.id) {
            buffers.mono = try Self.makeBuffer(.float32(sound.monoDownmix()), of: sound, channelCount: 1, on: device)
            buffersBySound[sound.id] = buffers
        }
        return buffers
    }

    /// Uploads every loaded sound to a new device (those it does not have yet).
    func uploadAll(on device: ALDevice) throws {
        for sound in sounds.values { _ = try buffers(for: sound, on: device) }
    }

    /// What a new device needs uploaded: every loaded sound, in load order.
    var uploads: [Upload] {
        sounds.values.sorted { $0.id < $1.id }.map { Upload(sound: $0, withMono: soundsWithMono.contains($0.id)) }
    }

    /// Takes the buffers uploaded to the new device off the lock, by sound id. A sound
    /// unloaded since has its buffers deleted with the next deferred releases; one loaded since
    /// is uploaded by ``uploadAll(on:)``.
    func adopt(_ prepared: [Int: SoundBuffers]) {
        for (id, buffers) in prepared.sorted(by: { $0.key < $1.key }) {
            if sounds[id] != nil && buffersBySound[id] == nil {
                buffersBySound[id] = buffers
            } else {
                buffersToDelete.append(buffers.native)
                if let mono = buffers.mono { buffersToDelete.append(mono) }
            }
        }
    }

    /// Uploads `upload`'s sound to `device`, its mono downmix too when asked. The caller has
    /// the device's context current; no engine state is touched.
    static func makeBuffers(for upload: Upload, on device: ALDevice) throws -> SoundBuffers {
        let sound = upload.sound
        var buffers = SoundBuffers(native: try makeBuffer(sound.samples, of: sound, channelCount: sound.format.channelCount, on: device),
                                   mono: nil)
        if upload.withMono && sound.format.channelCount == 2 {
            do {
                buffers.mono = try makeBuffer(.float32(sound.monoDownmix()), of: sound, channelCount: 1, on: device)
            } catch {
                try device.deleteBuffer(buffers.native)
                throw error
            }
        }
        return buffers
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

    /// A new buffer on `device` holding `samples` of `sound`, with its loop points.
    private static func makeBuffer(_ samples: SoundSamples, of sound: Sound, channelCount: Int, on device: ALDevice) throws -> ALBuffer {
        let buffer = try device.makeBuffer()
        let format = AudioFormat(sampleRate: sound.format.sampleRate, channelCount: channelCount)
        do {
            switch samples {
            case .int16(let values): try values.withUnsafeBufferPointer { try buffer.upload($0, format: format) }
            case .float32(let values): try values.withUnsafeBufferPointer { try buffer.upload($0, format: format) }
            }
            if let loopRegion = sound.loopRegion { try buffer.setLoopPoints(loopRegion) }
        } catch {
            try device.deleteBuffer(buffer)
            throw error
        }
        return buffer
    }
}
