extension EngineCore {
    /// Registers a decoded sound and uploads it when a device is available; otherwise it is
    /// uploaded when the session is active again or the device is rebuilt.
    func register(_ sound: Sound) {
        sounds[sound.id] = sound
        withAL("loadSound(\(sound.name))") { device in _ = try buffers(for: sound, on: device) }
    }

    /// The sound's buffers on `device`, uploading them on first use.
    func buffers(for sound: Sound, on device: ALDevice) throws -> SoundBuffers {
        if let existing = soundBuffers[sound.id] { return existing }
        let native = try device.makeBuffer()
        try sound.samples.withUnsafeBufferPointer { try native.upload($0, format: sound.format) }
        var mono: ALBuffer?
        if sound.format.channelCount == 2 {
            let monoBuffer = try device.makeBuffer()
            try sound.monoSamples.withUnsafeBufferPointer {
                try monoBuffer.upload($0, format: AudioFormat(sampleRate: sound.format.sampleRate, channelCount: 1))
            }
            mono = monoBuffer
        }
        let buffers = SoundBuffers(native: native, mono: mono)
        soundBuffers[sound.id] = buffers
        return buffers
    }

    /// Stops every voice of `sound` and frees its buffers.
    func unload(_ sound: Sound) {
        for case let voice? in voiceSlots where voice.sound.id == sound.id {
            removeVoice(voice)
        }
        if let buffers = soundBuffers.removeValue(forKey: sound.id) {
            // While interrupted no AL call may be made: the buffers are deleted when it ends.
            buffersToDelete.append(buffers.native)
            if let mono = buffers.mono { buffersToDelete.append(mono) }
            withAL("unloadSound(\(sound.name))") { device in try releaseDeferredSources(on: device) }
        }
        sounds[sound.id] = nil
    }
}
