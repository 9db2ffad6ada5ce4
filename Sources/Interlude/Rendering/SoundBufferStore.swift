/// The loaded sounds' AL buffers on the current device, by sound id, and the buffers waiting to
/// be deleted once AL may be called and no source holds them. ``SoundBank`` decides what is
/// uploaded and when; this makes, reads and deletes the buffers. Every instance method that
/// calls OpenAL runs inside ``ALGate/run(_:_:)``; the static ones take the device they work on
/// (``SoundUpload`` prepares a new one off the engine lock).
final class SoundBufferStore {
    private let gate: ALGate
    private var buffersBySound: [Int: SoundBuffers] = [:]
    /// Buffers of sounds unloaded, or of loads given up: deleted by ``deleteReleased()``.
    private var buffersToDelete: [ALBuffer] = []

    init(gate: ALGate) {
        self.gate = gate
    }

    /// The sound's buffers on the current device, if it has them.
    func buffers(ofSoundID id: Int) -> SoundBuffers? { buffersBySound[id] }

    /// The ids of the sounds with buffers on the current device.
    var soundIDs: Dictionary<Int, SoundBuffers>.Keys { buffersBySound.keys }

    /// The current device maps buffers (AL_SOFT_map_buffer): a file sound's buffer can be read
    /// back, so its samples need not be kept in Swift.
    var mapsBuffers: Bool { (try? gate.device().extensions.bufferMapping) != nil }

    /// Keeps buffers made elsewhere (a new device's preparation) as the sound's.
    func keep(_ buffers: SoundBuffers, forSoundID id: Int) {
        buffersBySound[id] = buffers
    }

    /// Keeps a buffer a file was decoded straight into as the sound's own.
    func keep(_ fill: BufferFill, forSoundID id: Int) {
        buffersBySound[id] = SoundBuffers(native: fill.buffer, mono: nil)
    }

    /// A buffer made for a load that gave up: deleted with the next deferred releases.
    func release(_ fill: BufferFill) {
        buffersToDelete.append(fill.buffer)
    }

    /// Buffers nobody will use (a sound unloaded while its new device was prepared): deleted
    /// with the next deferred releases.
    func release(_ buffers: SoundBuffers) {
        buffersToDelete.append(buffers.native)
        if let mono = buffers.mono { buffersToDelete.append(mono) }
    }

    /// Lets go of an unloaded sound's buffers: deleted with the next deferred releases.
    func releaseBuffers(ofSoundID id: Int) {
        if let buffers = buffersBySound.removeValue(forKey: id) { release(buffers) }
    }

    /// Uploads `samples` of `sound` as its own buffer on the current device, and keeps it.
    func upload(_ samples: SoundSamples, of sound: Sound) throws -> SoundBuffers {
        let native = try Self.makeBuffer(samples, of: sound, channelCount: sound.format.channelCount, on: gate.device())
        let buffers = SoundBuffers(native: native, mono: nil)
        buffersBySound[sound.id] = buffers
        return buffers
    }

    /// Makes stereo `sound`'s mono downmix from its buffer on the current device, and keeps it.
    func addMono(of sound: Sound) throws -> SoundBuffers {
        guard var buffers = buffersBySound[sound.id] else { throw InterludeError(.openAL, "\(sound.name): no buffer to downmix") }
        buffers.mono = try Self.makeMono(of: sound, from: buffers.native, on: gate.device())
        buffersBySound[sound.id] = buffers
        return buffers
    }

    /// `sound`'s samples read back from its buffer, where the current device maps buffers; nil
    /// otherwise. With the old device's context current, before it closes.
    func readSamples(of sound: Sound) throws -> SoundSamples? {
        guard let buffers = buffersBySound[sound.id], let mapping = try gate.device().extensions.bufferMapping else { return nil }
        return try buffers.native.withMappedBytes(byteOffset: 0, byteCount: sound.byteCount, writes: false, using: mapping) { bytes in
            sound.isFloat ? .float32(Array(bytes.assumingMemoryBound(to: Float.self)))
                          : .int16(Array(bytes.assumingMemoryBound(to: Int16.self)))
        }
    }

    /// Deletes the released buffers. Call after the sources that held them were released.
    func deleteReleased() throws {
        guard !buffersToDelete.isEmpty else { return }
        let device = try gate.device()
        while let buffer = buffersToDelete.popLast() {
            try device.deleteBuffer(buffer)
        }
    }

    /// Forgets every buffer name: the device that held them is gone.
    func forgetDevice() {
        buffersBySound.removeAll()
        buffersToDelete.removeAll()
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
