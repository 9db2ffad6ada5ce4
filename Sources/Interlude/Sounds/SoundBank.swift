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
        let monoBuffer = try upload(.float32(sound.monoDownmix()), of: sound, channelCount: 1, on: device)
        buffersBySound[sound.id]?.mono = monoBuffer
        soundsWithMono.insert(sound.id)
        return monoBuffer
    }

    /// The sound's buffers on `device`, uploading its own samples on first use, and its mono
    /// downmix when a positional voice needed it on an earlier device.
    func buffers(for sound: Sound, on device: ALDevice) throws -> SoundBuffers {
        if let existing = buffersBySound[sound.id] { return existing }
        let native = try upload(sound.samples, of: sound, channelCount: sound.format.channelCount, on: device)
        var buffers = SoundBuffers(native: native, mono: nil)
        buffersBySound[sound.id] = buffers
        if soundsWithMono.contains(sound.id) {
            buffers.mono = try upload(.float32(sound.monoDownmix()), of: sound, channelCount: 1, on: device)
            buffersBySound[sound.id] = buffers
        }
        return buffers
    }

    /// Uploads every loaded sound to a new device.
    func uploadAll(on device: ALDevice) throws {
        for sound in sounds.values { _ = try buffers(for: sound, on: device) }
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
    private func upload(_ samples: SoundSamples, of sound: Sound, channelCount: Int, on device: ALDevice) throws -> ALBuffer {
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
