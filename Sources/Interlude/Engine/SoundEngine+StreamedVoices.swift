extension SoundEngine {
    /// Starts a voice that streams its file while it plays, rather than loading it whole: a long
    /// ambience, a radio in the world. It is an ordinary voice (the handle works with every voice
    /// call): positional, in a group, faded, sent to a reverb zone or low-passed, ranked by
    /// priority, virtual when out of the real-source budget, held by interruptions and rebuilt
    /// after a device loss at the frame it reached.
    ///
    /// The file (WAV, Ogg Vorbis, Ogg Opus, FLAC or MP3, recognised by content) is opened now, on
    /// the calling thread: a missing or bad file throws here, naming it. From then on it is read
    /// and decoded on the engine's decode thread, never under the engine's lock. A positional
    /// voice of a stereo file plays the average of its channels, as a loaded stereo sound does. A
    /// looping voice repeats the file's own loop region (its loop tags; see
    /// ``AudioDecoder/loopRegion``) after a first pass from frame 0, or the whole file; a one-shot
    /// ends and is released at its end. Whether it loops is fixed when it starts.
    ///
    /// A virtual streamed voice keeps its time moving without decoding: when it gets a source
    /// again, the decode thread seeks to its frame. Every format seeks straight to a frame (MP3
    /// through the frame index its open-time scan builds), so nothing skipped is decoded.
    ///
    /// While interrupted, a looping voice starts when the session is active again and a
    /// one-shot is dropped (the returned handle is stale), as for ``play(_:parameters:)``. Throws
    /// `.fileNotFound`, `.corruptData` or `.unsupportedFormat` naming the file,
    /// `.invalidArgument` for out-of-range parameters, and `.tooManyVoices` when
    /// ``Configuration/maximumStreamedVoiceCount`` streamed voices (or
    /// ``Configuration/maximumVoiceCount`` voices) are alive. Snapshots do not carry streamed
    /// voices. Any thread.
    @discardableResult
    public func play(streamFrom path: String, parameters: VoiceParameters = VoiceParameters()) throws -> VoiceHandle {
        let call = "play(streamFrom: \(path))"
        try ensureAlive(call)
        let decoder = try DecoderFactory.open(path: path)
        return try playStreamedVoice(decoder: decoder, path: path, parameters: parameters, call: call)
    }

    /// Starts a streamed voice of a decoder of the game's own (a procedural source, a file read
    /// through the game's archive), as `play(streamFrom:parameters:)` does for a file. The
    /// engine takes the decoder over: from this call on only the engine's decode thread calls
    /// it (on an offline engine, the thread calling ``render(frameCount:)`` too, never both at
    /// once), so the game must not touch it again. `decoder.path` names the voice in errors and
    /// logs. Throws `.unsupportedFormat` for a format other than 1 or 2 channels at
    /// 1000...384000 Hz, and `.corruptData` for a decoder with no frames. Any thread.
    @discardableResult
    public func play(streamFrom decoder: sending any AudioDecoder, parameters: VoiceParameters = VoiceParameters()) throws -> VoiceHandle {
        let path = decoder.path
        let call = "play(streamFrom: \(path))"
        try decoder.format.checkSupported(in: call)
        return try playStreamedVoice(decoder: decoder, path: path, parameters: parameters, call: call)
    }

    /// Hands an open decoder to a new streamed voice; one with no frames is refused.
    private func playStreamedVoice(decoder: any AudioDecoder, path: String, parameters: VoiceParameters,
                                   call: String) throws -> VoiceHandle {
        guard decoder.frameCount > 0 else {
            throw InterludeError(.corruptData, "\(call): \(path) holds no audio")
        }
        return try withCore(call) { core in
            try core.streamedVoices.play(path: path, decoder: decoder, parameters: parameters, command: call)
        }
    }

    /// The most PCM, in bytes, a streamed voice holds in flight (its decoded chunks and its AL
    /// buffers), or nil for a stale handle or a voice of a loaded sound. For tests and the bench.
    package func streamedVoiceBytesInFlight(of voice: VoiceHandle) -> Int? {
        readCore { $0.voices.streamedBytesInFlight(of: voice) }
    }
}
