/// Puts one loaded sound on a new device being prepared off the engine lock
/// (``DevicePreparation``): from its kept samples, or, for a file sound, by decoding its file
/// again straight into the new buffer. The process-wide ``ALContextLock`` is held only for the
/// AL calls, never while the file is read, so other engines' AL work does not wait on the disk.
///
/// The file must still be the audio that was loaded: the same format and length, and the same
/// samples (``PCMChecksum``); a file touched or copied over with the same audio is fine.
/// Otherwise the sound is lost rather than played wrong: ``Outcome/lost(_:)`` says why.
enum SoundUpload {
    /// What became of a sound.
    enum Outcome {
        /// Its buffers on the new device.
        case ready(SoundBuffers)
        /// Its file changed or vanished since it was loaded: why, naming the file.
        case lost(String)
    }

    /// Uploads `upload`'s sound to `device`, which nobody else uses yet (its context is made
    /// current under the context lock for each AL step), its mono downmix too when asked.
    static func prepare(_ upload: SoundBank.Upload, on device: ALDevice) throws -> Outcome {
        let sound = upload.sound
        let native: ALBuffer
        if let samples = sound.kept.current {
            native = try onContext(of: device) {
                try SoundBufferStore.makeBuffer(samples, of: sound, channelCount: sound.format.channelCount, on: device)
            }
        } else if let file = sound.file, let mapping = device.extensions.bufferMapping {
            switch try decodeAgain(sound, from: file, on: device, using: mapping) {
            case .success(let buffer): native = buffer
            case .failure(let changed): return .lost(changed.reason)
            }
        } else {
            return .lost("\(sound.name): its samples are not kept and cannot be decoded again on this device")
        }
        var buffers = SoundBuffers(native: native, mono: nil)
        if upload.withMono && sound.format.channelCount == 2 {
            buffers.mono = try onContext(of: device) {
                do {
                    return try SoundBufferStore.makeMono(of: sound, from: native, on: device)
                } catch {
                    try device.deleteBuffer(native)
                    throw error
                }
            }
        }
        return .ready(buffers)
    }

    /// Why a file cannot give its sound again.
    private struct Changed: Error {
        var reason: String
    }

    /// Decodes `sound`'s file into a new buffer on `device`, mapped for writing while the file
    /// is read. The buffer is deleted if the file is not the sound's any more.
    private static func decodeAgain(_ sound: Sound, from file: SoundFile, on device: ALDevice,
                                    using mapping: ALBufferMapping) throws -> Result<ALBuffer, Changed> {
        let decoder: any AudioDecoder
        do {
            decoder = try DecoderFactory.open(path: file.path)
        } catch {
            return .failure(Changed(reason: "\(file.path): the file of a loaded sound cannot be read again (\(error)); its voices are silent"))
        }
        guard decoder.format == sound.format,
              SoundFileReader.isSixteenBit(decoder) == !sound.isFloat else {
            return .failure(Changed(reason: "\(file.path): the file of a loaded sound changed since it was loaded; its voices are silent"))
        }
        let buffer = try onContext(of: device) { () -> ALBuffer in
            let buffer = try device.makeBuffer()
            do {
                try buffer.allocate(byteCount: sound.byteCount, format: sound.format, isFloat: sound.isFloat, using: mapping)
                return buffer
            } catch {
                try device.deleteBuffer(buffer)
                throw error
            }
        }
        do {
            let target = try onContext(of: device) {
                try buffer.map(byteOffset: 0, byteCount: sound.byteCount, writes: true, using: mapping)
            }
            // The file is read with no lock held: the buffer is this preparation's alone.
            let read = Result { try SoundFileReader.read(decoder, frameLimit: sound.frameCount, measuresLoudness: false) { chunk, byteOffset in
                UnsafeMutableRawBufferPointer(rebasing: target[byteOffset..<byteOffset + chunk.count]).copyMemory(from: chunk)
            } }
            try onContext(of: device) {
                buffer.unmap(using: mapping)
                if let loopRegion = sound.loopRegion { try buffer.setLoopPoints(loopRegion) }
            }
            let result = try read.get()
            guard result.frameCount == sound.frameCount, !result.hasMore, result.checksum == file.checksum else {
                throw Changed(reason: "\(file.path): the file of a loaded sound holds other audio than when it was loaded; its voices are silent")
            }
            return .success(buffer)
        } catch {
            try onContext(of: device) { try device.deleteBuffer(buffer) }
            if let changed = error as? Changed { return .failure(changed) }
            if let error = error as? InterludeError, error.code != .openAL {
                return .failure(Changed(reason: "\(file.path): the file of a loaded sound no longer decodes (\(error.message)); its voices are silent"))
            }
            throw error
        }
    }

    /// Runs `body` under the context lock with `device`'s context current, NULL again after.
    private static func onContext<Result>(of device: ALDevice, _ body: () throws -> Result) throws -> Result {
        try device.context.run(leavesCurrent: false, body)
    }
}
