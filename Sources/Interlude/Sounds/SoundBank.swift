/// The loaded sounds and their AL buffers on the current device. A sound's buffers are made on
/// first use and made again on a new device; buffers of a sound unloaded while no AL call may
/// be made are deleted when one may.
final class SoundBank {
    private var sounds: [Int: Sound] = [:]
    private var buffersBySound: [Int: SoundBuffers] = [:]
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
        sounds[sound.id] = nil
    }

    /// The sound's buffers on `device`, uploading them on first use.
    func buffers(for sound: Sound, on device: ALDevice) throws -> SoundBuffers {
        if let existing = buffersBySound[sound.id] { return existing }
        let native = try device.makeBuffer()
        try sound.samples.withUnsafeBufferPointer { try native.upload($0, format: sound.format) }
        if let loopRegion = sound.loopRegion { try native.setLoopPoints(loopRegion) }
        var mono: ALBuffer?
        if sound.format.channelCount == 2 {
            let monoBuffer = try device.makeBuffer()
            try sound.monoSamples.withUnsafeBufferPointer {
                try monoBuffer.upload($0, format: AudioFormat(sampleRate: sound.format.sampleRate, channelCount: 1))
            }
            if let loopRegion = sound.loopRegion { try monoBuffer.setLoopPoints(loopRegion) }
            mono = monoBuffer
        }
        let buffers = SoundBuffers(native: native, mono: mono)
        buffersBySound[sound.id] = buffers
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
}
