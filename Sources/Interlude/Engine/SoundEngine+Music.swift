extension SoundEngine {
    /// Streams a track (WAV, Ogg Vorbis, Ogg Opus, FLAC or MP3) on `channel` (the soundtrack by
    /// default), replacing any. The file is opened now: a missing or bad file throws here, naming
    /// it. While interrupted, the track starts when the session is active again.
    /// - Parameters:
    ///   - path: the file.
    ///   - channel: the stream channel: the soundtrack, or the ambience beside it.
    ///   - isLooping: repeats the loop region (or the whole track) until stopped.
    ///   - gain: the track's own gain, times its group's.
    ///   - loopRegion: frames that repeat when looping, end exclusive; an intro before it plays
    ///     once. nil: the file's own loop tags (Vorbis `LOOPSTART`/`LOOPLENGTH`/`LOOPEND`, a WAV
    ///     `smpl` loop; see ``AudioDecoder/loopRegion``), else the whole track.
    ///   - fadeInSeconds: an equal-power fade in.
    ///   - loudnessLUFS: a loudness target in LUFS, in -70...0: the track plays with the extra
    ///     gain `10^((target - measured) / 20)` (above 1 too), on top of its other gains, so that
    ///     on its own it measures the target. The track's integrated loudness is measured (see
    ///     ``Loudness``) on the calling thread before it starts, the first time a target asks
    ///     for it, and cached while the file is unchanged (``measureLoudness(ofTrackAt:)``). A
    ///     silent track gets no extra gain. nil: no target.
    /// Any thread.
    public func playMusic(path: String, channel: StreamChannel = .music, isLooping: Bool = true, gain: Float = 1,
                          fadeInSeconds: Double = 0, loopRegion: Range<Int>? = nil, loudnessLUFS: Double? = nil) throws {
        try playStream(path: path, channel: channel, isLooping: isLooping, gain: gain, fadeInSeconds: fadeInSeconds,
                       loopRegion: loopRegion, crossfadeSeconds: nil, command: "music.play", call: "music.play(\(path))",
                       loudnessLUFS: loudnessLUFS)
    }

    /// Crossfades `channel` to another track over `durationSeconds`, equal-power: the combined
    /// level stays steady. `loopRegion` and `loudnessLUFS` are the new track's, as in
    /// ``playMusic(path:channel:isLooping:gain:fadeInSeconds:loopRegion:loudnessLUFS:)``: a nil
    /// `loopRegion` uses its loop tags. Any thread.
    public func crossfadeMusic(toPath path: String, durationSeconds: Double, channel: StreamChannel = .music,
                               isLooping: Bool = true, gain: Float = 1, loopRegion: Range<Int>? = nil,
                               loudnessLUFS: Double? = nil) throws {
        try playStream(path: path, channel: channel, isLooping: isLooping, gain: gain, fadeInSeconds: 0,
                       loopRegion: loopRegion, crossfadeSeconds: durationSeconds, command: "music.crossfade",
                       call: "music.crossfade(\(path))", loudnessLUFS: loudnessLUFS)
    }

    /// Streams a track from a decoder of the game's own on `channel`, replacing any: a format
    /// the engine does not read, music generated as it plays, a file read through the game's
    /// own storage. The engine takes the decoder over: from this call on only the engine's
    /// decode thread calls it (on an offline engine, the thread calling ``render(frameCount:)``
    /// too, never both at once), so the game must not touch it again. `decoder.path` names the
    /// track in errors, logs and events, and is what a ``Snapshot`` saves (restoring opens that
    /// path as a file). Its reads may block (a slow disk, a network): the track then runs dry
    /// (``SessionEvent/musicUnderrun(path:positionInFrames:)``) and plays on from the same frame
    /// when they return, and no engine call waits for them. Throws `.unsupportedFormat` for a
    /// format other than 1 or 2 channels at 1000...384000 Hz. The other parameters are
    /// ``playMusic(path:channel:isLooping:gain:fadeInSeconds:loopRegion:loudnessLUFS:)``'s; with a
    /// `loudnessLUFS` target the decoder is read whole from frame 0 on the calling thread to
    /// measure it (not cached), then moved back to frame 0. Any thread.
    public func playMusic(decoder: sending any AudioDecoder, channel: StreamChannel = .music, isLooping: Bool = true,
                          gain: Float = 1, fadeInSeconds: Double = 0, loopRegion: Range<Int>? = nil,
                          loudnessLUFS: Double? = nil) throws {
        try validateStream(gain: gain, fadeInSeconds: fadeInSeconds, crossfadeSeconds: nil, loudnessLUFS: loudnessLUFS,
                           command: "music.play")
        let format = decoder.format
        guard (1...2).contains(format.channelCount), (1_000...384_000).contains(format.sampleRate), decoder.frameCount >= 0 else {
            throw InterludeError(.unsupportedFormat, "music.play(\(decoder.path)): \(format.channelCount) channels at \(format.sampleRate) Hz, \(decoder.frameCount) frames is not supported (1 or 2 channels, 1000...384000 Hz)")
        }
        let path = decoder.path
        var loudnessGain: Float = 1
        if let loudnessLUFS {
            try decoder.seek(toFrame: 0)
            loudnessGain = try Loudness.measure(decoder: decoder).gain(toTarget: loudnessLUFS)
            try decoder.seek(toFrame: 0)
        }
        try playStream(decoder: decoder, path: path, channel: channel, isLooping: isLooping, gain: gain,
                       fadeInSeconds: fadeInSeconds, loopRegion: loopRegion, crossfadeSeconds: nil, command: "music.play",
                       call: "music.play(\(path))", loudness: loudnessLUFS.map { StreamLoudness(targetLUFS: $0, gain: loudnessGain) })
    }

    /// The integrated loudness of the track file at `path` (see ``Loudness``), as a loudness
    /// target of ``playMusic(path:channel:isLooping:gain:fadeInSeconds:loopRegion:loudnessLUFS:)``
    /// uses it: measured on the calling thread (decoding the file whole) the first time, then
    /// cached while the file is unchanged. Throws like ``DecoderFactory/open(path:)``, and
    /// `.corruptData` for damage found while decoding. Any thread; never takes the engine's lock.
    public func measureLoudness(ofTrackAt path: String) throws -> Loudness {
        try trackLoudness(ofPath: path)
    }

    /// Opens the track (outside the engine's lock), measures it for a loudness target (also
    /// outside), and starts it on `channel`.
    func playStream(path: String, channel: StreamChannel, isLooping: Bool, gain: Float, fadeInSeconds: Double,
                    loopRegion: Range<Int>?, crossfadeSeconds: Double?, command: String, call: String,
                    loudnessLUFS: Double? = nil, startFrame: Int = 0, startsPaused: Bool = false) throws {
        try validateStream(gain: gain, fadeInSeconds: fadeInSeconds, crossfadeSeconds: crossfadeSeconds,
                           loudnessLUFS: loudnessLUFS, command: command)
        try ensureAlive(call)
        let decoder = try DecoderFactory.open(path: path)
        let loudness = try loudnessLUFS.map { StreamLoudness(targetLUFS: $0, gain: try trackLoudness(ofPath: path).gain(toTarget: $0)) }
        try playStream(decoder: decoder, path: path, channel: channel, isLooping: isLooping, gain: gain,
                       fadeInSeconds: fadeInSeconds, loopRegion: loopRegion, crossfadeSeconds: crossfadeSeconds,
                       command: command, call: call, loudness: loudness, startFrame: startFrame, startsPaused: startsPaused)
    }

    /// Starts an open decoder's track on `channel`; the decoder goes to the decode thread.
    private func playStream(decoder: any AudioDecoder, path: String, channel: StreamChannel, isLooping: Bool, gain: Float,
                            fadeInSeconds: Double, loopRegion: Range<Int>?, crossfadeSeconds: Double?, command: String,
                            call: String, loudness: StreamLoudness?, startFrame: Int = 0, startsPaused: Bool = false) throws {
        try withCore(call) { core in
            try core.streams.play(path: path, decoder: decoder, channel: channel, isLooping: isLooping, gain: gain,
                                  fadeInSeconds: fadeInSeconds, loopRegion: loopRegion, crossfadeSeconds: crossfadeSeconds,
                                  command: command, loudness: loudness, startFrame: startFrame, startsPaused: startsPaused)
        }
    }

    private func validateStream(gain: Float, fadeInSeconds: Double, crossfadeSeconds: Double?, loudnessLUFS: Double?,
                                command: String) throws {
        try Validate.gain(gain, in: command)
        try Validate.seconds(fadeInSeconds, "fadeIn", in: command)
        if let crossfadeSeconds { try Validate.seconds(crossfadeSeconds, "duration", in: command) }
        if let loudnessLUFS { try Validate.loudness(loudnessLUFS, in: command) }
    }

    /// Pauses the track at its frame. Tracked while interrupted: it stays silent at the end.
    /// Any thread.
    public func pauseMusic(channel: StreamChannel = .music) {
        withLiveCore { $0.streams.pause(channel, command: "music.pause") }
    }

    /// Resumes the track at the frame it paused on. Tracked while interrupted: it plays from
    /// the end on. Any thread.
    public func resumeMusic(channel: StreamChannel = .music) {
        withLiveCore { $0.streams.resume(channel, command: "music.resume") }
    }

    /// Stops the track, at once or with an equal-power fade out. Any thread.
    public func stopMusic(channel: StreamChannel = .music, fadeOutSeconds: Double = 0) throws {
        try withCore("music.stop") { try $0.streams.stop(channel, fadeOutSeconds: fadeOutSeconds, command: "music.stop") }
    }

    /// Moves the track to `frame`. Any thread.
    public func seekMusic(toFrame frame: Int, channel: StreamChannel = .music) throws {
        try withCore("seekMusic(toFrame: \(frame))") { try $0.streams.seek(channel, toFrame: frame) }
    }

    /// How many frames of the track have played, modulo its loop: exact, counted by the
    /// engine, and kept through interruptions and device loss. nil with no track. Any thread.
    public func musicPositionInFrames(channel: StreamChannel = .music) -> Int? {
        readCore { $0.streams.position(channel) }
    }

    /// The track's length in frames and its sample rate, or nil with no track. Any thread.
    public func musicDuration(channel: StreamChannel = .music) -> (frameCount: Int, sampleRate: Int)? {
        readCore { core in
            core.streams.stream(on: channel).map { ($0.frameCount, $0.format.sampleRate) }
        }
    }

    /// True while the track plays (or will, when an interruption ends). Any thread.
    public func isMusicPlaying(channel: StreamChannel = .music) -> Bool {
        readCore { core in
            guard let state = core.streams.stream(on: channel)?.state else { return false }
            return state != .paused
        }
    }

    /// The error that ended the track early (a corrupt page mid-stream), if any; kept after the
    /// track has ended, until the channel plays another. Any thread.
    public func musicError(channel: StreamChannel = .music) -> InterludeError? {
        readCore { $0.streams.error(on: channel) }
    }
}
