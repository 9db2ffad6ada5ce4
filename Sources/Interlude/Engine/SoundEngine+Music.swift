extension SoundEngine {
    /// Streams a track (WAV, Ogg Vorbis, Ogg Opus, FLAC or MP3) on `channel` (the soundtrack by
    /// default), replacing any, and returns its handle. The file is opened now: a missing or bad
    /// file throws here, naming it. While interrupted, the track starts when the session is
    /// active again.
    /// - Parameters:
    ///   - path: the file.
    ///   - channel: the stream channel: the soundtrack, or the ambience beside it.
    ///   - isLooping: repeats the loop region (or the whole track) until stopped.
    ///   - gain: the track's own gain, times its group's.
    ///   - fadeSeconds: an equal-power fade in.
    ///   - loopRegion: frames that repeat when looping, end exclusive; an intro before it plays
    ///     once. nil: the file's own loop tags (Vorbis `LOOPSTART`/`LOOPLENGTH`/`LOOPEND`, a WAV
    ///     `smpl` loop; see ``AudioDecoder/loopRegion``), else the whole track.
    ///   - loudnessLUFS: a loudness target in LUFS, in -70...0: the track plays with the extra
    ///     gain `10^((target - measured) / 20)` (above 1 too), on top of its other gains, so that
    ///     on its own it measures the target. The track's integrated loudness is measured (see
    ///     ``Loudness``) on the calling thread before it starts, the first time a target asks
    ///     for it, and cached while the file is unchanged (``measureLoudness(ofTrackAt:)``). A
    ///     silent track gets no extra gain. nil: no target.
    /// Any thread.
    @discardableResult
    public func playMusic(path: String, channel: StreamChannel = .music, isLooping: Bool = true, gain: Float = 1,
                          fadeSeconds: Double = 0, loopRegion: Range<Int>? = nil, loudnessLUFS: Double? = nil) throws -> MusicHandle {
        try TrackStart(engine: self).play(path: path, channel: channel, isLooping: isLooping, gain: gain, fadeInSeconds: fadeSeconds,
                                          loopRegion: loopRegion, crossfadeSeconds: nil, call: "playMusic(path: \(path))",
                                          loudnessLUFS: loudnessLUFS)
    }

    /// Streams a track from a decoder of the game's own on `channel`, replacing any: a format
    /// the engine does not read, music generated as it plays, a file read through the game's
    /// own storage. The engine takes the decoder over: from this call on only the engine's
    /// decode thread calls it (on an offline engine, the thread calling ``render(frameCount:)``
    /// too, never both at once), so the game must not touch it again. `decoder.path` names the
    /// track in errors, logs and events, and is what a ``SavedState`` saves (restoring opens that
    /// path as a file). Its reads may block (a slow disk, a network): the track then runs dry
    /// (``MusicEvent/underrun(path:positionInFrames:)``) and plays on from the same frame when
    /// they return, and no engine call waits for them. Throws `.unsupportedFormat` for a format
    /// other than 1 or 2 channels at 1000...384000 Hz. The other parameters are
    /// ``playMusic(path:channel:isLooping:gain:fadeSeconds:loopRegion:loudnessLUFS:)``'s; with a
    /// `loudnessLUFS` target the decoder is read whole from frame 0 on the calling thread to
    /// measure it (not cached), then moved back to frame 0. Any thread.
    @discardableResult
    public func playMusic(decoder: sending any AudioDecoder, channel: StreamChannel = .music, isLooping: Bool = true,
                          gain: Float = 1, fadeSeconds: Double = 0, loopRegion: Range<Int>? = nil,
                          loudnessLUFS: Double? = nil) throws -> MusicHandle {
        try TrackStart(engine: self).play(decoder: decoder, channel: channel, isLooping: isLooping, gain: gain,
                                          fadeInSeconds: fadeSeconds, loopRegion: loopRegion, crossfadeSeconds: nil,
                                          call: "playMusic(decoder: \(decoder.path))", loudnessLUFS: loudnessLUFS)
    }

    /// Crossfades `channel` to another track over `fadeSeconds`, equal-power: the combined
    /// level stays steady. Returns the new track's handle; the old one's handle still answers
    /// queries (its position, say) while it fades out. `loopRegion` and `loudnessLUFS` are the
    /// new track's, as in ``playMusic(path:channel:isLooping:gain:fadeSeconds:loopRegion:loudnessLUFS:)``:
    /// a nil `loopRegion` uses its loop tags. Any thread.
    @discardableResult
    public func crossfadeMusic(toPath path: String, fadeSeconds: Double, channel: StreamChannel = .music,
                               isLooping: Bool = true, gain: Float = 1, loopRegion: Range<Int>? = nil,
                               loudnessLUFS: Double? = nil) throws -> MusicHandle {
        try TrackStart(engine: self).play(path: path, channel: channel, isLooping: isLooping, gain: gain, fadeInSeconds: 0,
                                          loopRegion: loopRegion, crossfadeSeconds: fadeSeconds,
                                          call: "crossfadeMusic(toPath: \(path))", loudnessLUFS: loudnessLUFS)
    }

    /// Crossfades `channel` to a track from a decoder of the game's own, as
    /// ``crossfadeMusic(toPath:fadeSeconds:channel:isLooping:gain:loopRegion:loudnessLUFS:)`` does for a
    /// file; the engine takes the decoder over, and measures it for a `loudnessLUFS` target, as
    /// ``playMusic(decoder:channel:isLooping:gain:fadeSeconds:loopRegion:loudnessLUFS:)`` does. Any thread.
    @discardableResult
    public func crossfadeMusic(toDecoder decoder: sending any AudioDecoder, fadeSeconds: Double,
                               channel: StreamChannel = .music, isLooping: Bool = true, gain: Float = 1,
                               loopRegion: Range<Int>? = nil, loudnessLUFS: Double? = nil) throws -> MusicHandle {
        try TrackStart(engine: self).play(decoder: decoder, channel: channel, isLooping: isLooping, gain: gain, fadeInSeconds: 0,
                                          loopRegion: loopRegion, crossfadeSeconds: fadeSeconds,
                                          call: "crossfadeMusic(toDecoder: \(decoder.path))", loudnessLUFS: loudnessLUFS)
    }

    /// The integrated loudness of the track file at `path` (see ``Loudness``), as a loudness
    /// target of ``playMusic(path:channel:isLooping:gain:fadeSeconds:loopRegion:loudnessLUFS:)``
    /// uses it: measured on the calling thread (decoding the file whole) the first time, then
    /// cached while the file is unchanged. Throws `.fileNotFound`, `.unreadableFile` or
    /// `.unsupportedFormat` naming the file, and `.corruptData` for damage found while decoding.
    /// Any thread; never takes the engine's lock.
    public func measureLoudness(ofTrackAt path: String) throws -> Loudness {
        try trackLoudness(ofPath: path)
    }

    /// The track now on `channel`, or nil when none plays there. Any thread.
    public func music(on channel: StreamChannel = .music) -> MusicHandle? {
        readCore { core in core.streams.stream(on: channel).map { MusicHandle($0, engineID: engineID) } }
    }

    /// Sets a track's own gain (>= 0; its group's multiplies it): at once, or moving there over
    /// `fadeSeconds` along `curve` while it plays. Any thread.
    public func setGain(_ gain: Float, of music: MusicHandle, fadeSeconds: Double = 0, curve: FadeCurve = .linear) throws {
        try control(.setGain(gain, fadeSeconds: fadeSeconds, curve: curve), .music(music))
    }

    /// Pauses a track at its frame (with what it is crossfading from): at once, or after an
    /// equal-power fade out over `fadeSeconds`. Tracked while interrupted: it stays silent at
    /// the end. Any thread.
    public func pause(_ music: MusicHandle, fadeSeconds: Double = 0) throws {
        try control(.pause(fadeSeconds: fadeSeconds), .music(music))
    }

    /// Resumes a track at the frame it paused on: at once, or fading in over `fadeSeconds`.
    /// Tracked while interrupted: it plays from the end on. Any thread.
    public func resume(_ music: MusicHandle, fadeSeconds: Double = 0) throws {
        try control(.resume(fadeSeconds: fadeSeconds), .music(music))
    }

    /// Stops a track: at once, or with an equal-power fade out over `fadeSeconds`. Tracked while
    /// interrupted. Any thread.
    public func stop(_ music: MusicHandle, fadeSeconds: Double = 0) throws {
        try control(.stop(fadeSeconds: fadeSeconds), .music(music))
    }

    /// Moves a track to `frame` (>= 0; past the end, it ends or wraps into its loop). Any thread.
    public func seek(_ music: MusicHandle, toFrame frame: Int) throws {
        try withCore("seek(\(music), toFrame: \(frame))") { try $0.seek(music, toFrame: frame) }
    }

    /// How many frames of the track have played, modulo its loop: exact, counted by the
    /// engine, and kept through interruptions and device loss. nil once the track no longer
    /// sounds. Any thread.
    public func positionInFrames(of music: MusicHandle) -> Int? {
        readCore { $0.streams.position(of: music) }
    }

    /// The track's length in frames and its sample rate, or nil once it no longer sounds.
    /// Any thread.
    public func duration(of music: MusicHandle) -> (frameCount: Int, sampleRate: Int)? {
        readCore { $0.streams.duration(of: music) }
    }

    /// True while the track is its channel's current one and plays (or will, when an
    /// interruption ends). Any thread.
    public func isPlaying(_ music: MusicHandle) -> Bool {
        readCore { $0.streams.isPlaying(music) }
    }

    /// The error that ended `channel`'s last track early (a corrupt page mid-stream), if any;
    /// kept after the track has ended, until the channel plays another. Any thread.
    public func musicError(on channel: StreamChannel = .music) -> InterludeError? {
        readCore { $0.streams.error(on: channel) }
    }
}
