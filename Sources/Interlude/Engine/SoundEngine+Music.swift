extension SoundEngine {
    /// Streams a WAV or Ogg Vorbis track on `channel` (the soundtrack by default), replacing
    /// any. The file is opened now: a missing or bad file throws here, naming it. While
    /// interrupted, the track starts when the session is active again.
    /// - Parameters:
    ///   - loopRegion: frames that repeat when looping; an intro before it plays once.
    ///   - fadeInSeconds: an equal-power fade in.
    /// Any thread.
    public func playMusic(path: String, channel: StreamChannel = .music, isLooping: Bool = true, gain: Float = 1,
                          fadeInSeconds: Double = 0, loopRegion: Range<Int>? = nil) throws {
        try withCore("music.play(\(path))") { core in
            try core.playStream(path: path, channel: channel, isLooping: isLooping, gain: gain, fadeInSeconds: fadeInSeconds,
                                loopRegion: loopRegion, crossfadeSeconds: nil, command: "music.play")
        }
    }

    /// Crossfades `channel` to another track over `durationSeconds`, equal-power: the combined
    /// level stays steady. Any thread.
    public func crossfadeMusic(toPath path: String, durationSeconds: Double, channel: StreamChannel = .music,
                               isLooping: Bool = true, gain: Float = 1) throws {
        try withCore("music.crossfade(\(path))") { core in
            try core.playStream(path: path, channel: channel, isLooping: isLooping, gain: gain, fadeInSeconds: 0,
                                loopRegion: nil, crossfadeSeconds: durationSeconds, command: "music.crossfade")
        }
    }

    /// Pauses the track at its frame. Tracked while interrupted: it stays silent at the end.
    /// Any thread.
    public func pauseMusic(channel: StreamChannel = .music) {
        withLiveCore { $0.pauseStream(channel, command: "music.pause") }
    }

    /// Resumes the track at the frame it paused on. Tracked while interrupted: it plays from
    /// the end on. Any thread.
    public func resumeMusic(channel: StreamChannel = .music) {
        withLiveCore { $0.resumeStream(channel, command: "music.resume") }
    }

    /// Stops the track, at once or with an equal-power fade out. Any thread.
    public func stopMusic(channel: StreamChannel = .music, fadeOutSeconds: Double = 0) throws {
        try withCore("music.stop") { try $0.stopStream(channel, fadeOutSeconds: fadeOutSeconds, command: "music.stop") }
    }

    /// Moves the track to `frame`. Any thread.
    public func seekMusic(toFrame frame: Int, channel: StreamChannel = .music) throws {
        try withCore("seekMusic(toFrame: \(frame))") { core in
            guard let stream = core.streams[channel] else {
                throw InterludeError(.invalidArgument, "seekMusic(toFrame: \(frame)): no track on \(channel)")
            }
            if core.canUseAL, let device = core.device {
                try core.session.withContext(device) { try stream.seek(toFrame: frame) }
            } else {
                // Interrupted: no AL call; the queue is refilled from the frame when it resumes.
                try stream.seek(toFrame: frame, canUseAL: false)
            }
        }
    }

    /// How many frames of the track have played, modulo its loop: exact, counted by the
    /// engine, and kept through interruptions and device loss. nil with no track. Any thread.
    public func musicPositionInFrames(channel: StreamChannel = .music) -> Int? {
        core.withLock { $0.streamPosition(channel) }
    }

    /// The track's length in frames and its sample rate, or nil with no track. Any thread.
    public func musicDuration(channel: StreamChannel = .music) -> (frameCount: Int, sampleRate: Int)? {
        core.withLock { core in
            core.streams[channel].map { ($0.frameCount, $0.format.sampleRate) }
        }
    }

    /// True while the track plays (or will, when an interruption ends). Any thread.
    public func isMusicPlaying(channel: StreamChannel = .music) -> Bool {
        core.withLock { core in
            guard let state = core.streams[channel]?.state else { return false }
            return state != .paused
        }
    }

    /// The error that ended the track early (a corrupt page mid-stream), if any; kept after the
    /// track has ended, until the channel plays another. Any thread.
    public func musicError(channel: StreamChannel = .music) -> InterludeError? {
        core.withLock { $0.streams[channel]?.decodeError ?? $0.streamErrors[channel] }
    }
}
