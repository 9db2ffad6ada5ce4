/// A sound decoded straight into a new AL buffer on the current device (AL_SOFT_map_buffer), a
/// chunk at a time, so that its samples are never held twice: ``SoundLoader`` decodes, and
/// writes each chunk here under the engine's lock for a moment.
struct BufferFill {
    private let device: ALDevice
    /// The buffer being filled; the sound's own once ``SoundBufferStore`` keeps it.
    let buffer: ALBuffer
    private let mapping: ALBufferMapping

    /// A new buffer of `byteCount` bytes for `format` on `device`; nil where the device cannot
    /// map buffers. Made current on `device`'s context by the caller.
    static func begin(on device: ALDevice, byteCount: Int, format: AudioFormat, isFloat: Bool) throws -> BufferFill? {
        guard let mapping = device.extensions.bufferMapping else { return nil }
        let buffer = try device.makeBuffer()
        do {
            try buffer.allocate(byteCount: byteCount, format: format, isFloat: isFloat, using: mapping)
        } catch {
            try device.deleteBuffer(buffer)
            throw error
        }
        return BufferFill(device: device, buffer: buffer, mapping: mapping)
    }

    private init(device: ALDevice, buffer: ALBuffer, mapping: ALBufferMapping) {
        self.device = device
        self.buffer = buffer
        self.mapping = mapping
    }

    /// Whether `openDevice` is the device this fill writes into (a device changed meanwhile
    /// took the buffer with it).
    func isOn(_ openDevice: ALDevice?) -> Bool {
        openDevice === device
    }

    /// Writes `chunk` at `byteOffset` into the buffer; on its device's context.
    func write(_ chunk: UnsafeRawBufferPointer, at byteOffset: Int) throws {
        try buffer.withMappedBytes(byteOffset: byteOffset, byteCount: chunk.count, writes: true, using: mapping) {
            $0.copyMemory(from: chunk)
        }
    }

    /// Sets the sound's loop points on the filled buffer; on its device's context.
    func finish(loopRegion: Range<Int>?) throws {
        if let loopRegion { try buffer.setLoopPoints(loopRegion) }
    }
}
