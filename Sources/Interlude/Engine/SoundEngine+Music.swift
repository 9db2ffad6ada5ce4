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
    /// Any thread.
    public func playMusic(path: String, channel: StreamChannel = .music, isLooping: Bool = true, gain: Float = 1,
                          fadeInSeconds: Double = 0, loopRegion: Range<Int>? = nil) throws {
        try playStream(path: path, channel: channel, isLooping: isLooping, gain: gain, fadeInSeconds: fadeInSeconds,
                       loopRegion: loopRegion, crossfadeSeconds: nil, command: "music.play", call: "music.play(\(path))")
    }

    /// Crossfades `channel` to another track over `durationSeconds`, equal-power: the combined
    /// level stays steady. `loopRegion` is the new track's, as in
    /// ``playMusic(path:channel:isLooping:gain:fadeInSeconds:loopRegion:)``: nil uses its loop
    /// tags. Any thread.
    public func crossfadeMusic(toPath path: String, durationSeconds: Double, channel: StreamChannel = .music,
                               isLooping: Bool = true, gain: Float = 1, loopRegion: Range<Int>? = nil) throws {
        try playStream(path: path, channel: channel, isLooping: isLooping, gain: gain, fadeInSeconds: 0,
                       loopRegion: loopRegion, crossfadeSeconds: durationSeconds, command: "music.crossfade",
                       call: "music.crossfade(\(path))")
    }

    /// Opens the track (outside the engine's lock) and starts it on `channel`.
    func playStream(path: String, channel: StreamChannel, isLooping: Bool, gain: Float, fadeInSeconds: Double,
                    loopRegion: Range<Int>?, crossfadeSeconds: Double?, command: String, call: String,
                    startFrame: Int = 0, startsPaused: Bool = false) throws {
        try Validate.gain(gain, in: command)
        try Validate.seconds(fadeInSeconds, "fadeIn", in: command)
        if let crossfadeSeconds { try Validate.seconds(crossfadeSeconds, "duration", in: command) }
        try ensureAlive(call)
        let decoder = try DecoderFactory.open(path: path)
        try withCore(call) { core in
            try core.streams.play(path: path, decoder: decoder, channel: channel, isLooping: isLooping, gain: gain,
                                  fadeInSeconds: fadeInSeconds, loopRegion: loopRegion, crossfadeSeconds: crossfadeSeconds,
                                  command: command, startFrame: startFrame, startsPaused: startsPaused)
        }
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
